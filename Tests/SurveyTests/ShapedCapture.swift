import BeaconFormats
import Captures
import Foundation
import HCI

/// A capture built from real advertising data with timings shaped to a test's case: packets are
/// written as LE Advertising Reports to a real btsnoop file (`BTSnoopWriter`) and read back
/// through `CaptureReader` and `BeaconSightingDecoder`, the path `replay` takes.
struct ShapedCapture {
    struct Packet {
        var time: Double
        var address: BDAddress
        var rssi: Int8
        var data: [UInt8]
    }

    private(set) var packets: [Packet] = []

    /// One packet every `interval` seconds in `start..<end`, each delayed by the spec's random
    /// 0-10 ms (advDelay) from `generator`; `keep` says which of them the receiver heard.
    mutating func advertise(
        _ data: [UInt8], from address: BDAddress, every interval: Double, from start: Double, to end: Double, rssi: Int8,
        generator: inout some RandomNumberGenerator, keep: (Int) -> Bool = { _ in true }
    ) {
        var time = start
        var index = 0
        while time < end {
            if keep(index) { packets.append(Packet(time: time, address: address, rssi: rssi, data: data)) }
            time += interval + Double.random(in: 0...0.010, using: &generator)
            index += 1
        }
    }

    mutating func add(_ data: [UInt8], from address: BDAddress, at time: Double, rssi: Int8) {
        packets.append(Packet(time: time, address: address, rssi: rssi, data: data))
    }

    /// Writes the capture and decodes it back, in time order.
    func sightings() throws -> [BeaconSighting] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-shaped-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var writer = try BTSnoopWriter(path: path)
        for packet in packets.sorted(by: { $0.time < $1.time }) {
            let advertisement = Advertisement(
                timestamp: packet.time, address: packet.address, addressType: .randomDevice, eventKind: .scanRsp,
                rssi: packet.rssi, data: packet.data[...]
            )
            try writer.write(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: packet.time))
        }
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var sightings: [BeaconSighting] = []
        while let packet = try reader.next() {
            try decoder.decode(packet) { sightings.append($0) }
        }
        return sightings
    }
}
