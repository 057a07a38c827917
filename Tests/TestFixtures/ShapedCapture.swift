import BeaconFormats
import Captures
import Foundation
import HCI

/// A capture built from real advertising data with timings shaped to a test's case: packets are
/// written as LE Advertising Reports to a real btsnoop file (`BTSnoopWriter`) and read back
/// through `CaptureReader` and `BeaconSightingDecoder`, the path `replay` takes.
public struct ShapedCapture {
    public struct Packet {
        public var time: Double
        public var address: BDAddress
        public var rssi: Int8
        public var data: [UInt8]
    }

    public private(set) var packets: [Packet] = []

    public init() {}

    /// One packet every `interval` seconds in `start..<end`, each delayed by the spec's random
    /// 0-10 ms (advDelay) from `generator`; `keep` says which of them the receiver heard.
    public mutating func advertise(
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

    /// As `advertise`, one frame per advertising event taken in turn from `cycle` (an Eddystone
    /// beacon sending its UID in most events and its TLM in every n-th, as the spec's beacons do).
    public mutating func advertise(
        cycling cycle: [[UInt8]], from address: BDAddress, every interval: Double, from start: Double, to end: Double, rssi: Int8,
        generator: inout some RandomNumberGenerator
    ) {
        var time = start
        var index = 0
        while time < end {
            packets.append(Packet(time: time, address: address, rssi: rssi, data: cycle[index % cycle.count]))
            time += interval + Double.random(in: 0...0.010, using: &generator)
            index += 1
        }
    }

    public mutating func add(_ data: [UInt8], from address: BDAddress, at time: Double, rssi: Int8) {
        packets.append(Packet(time: time, address: address, rssi: rssi, data: data))
    }

    /// Writes the capture to `path` as a btsnoop file (what `replay`, `scan` and the monitor read).
    public func write(to path: String) throws {
        var writer = try BTSnoopWriter(path: path, replacing: true)
        for packet in packets.sorted(by: { $0.time < $1.time }) {
            let advertisement = Advertisement(
                timestamp: packet.time, address: packet.address, addressType: .randomDevice, eventKind: .scanRsp,
                rssi: packet.rssi, data: packet.data[...]
            )
            try writer.write(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: packet.time))
        }
    }

    /// Writes the capture and decodes it back, in time order.
    public func sightings() throws -> [BeaconSighting] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("survey-shaped-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(to: path)
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var sightings: [BeaconSighting] = []
        while let packet = try reader.next() {
            try decoder.decode(packet) { sightings.append($0) }
        }
        return sightings
    }
}
