import BeaconFormats
import Captures
import HCI

/// `beacontop-bench monitor-capture OUT [BEACONS [SECONDS [HZ]]]`: writes a btsnoop capture of
/// BEACONS iBeacons (default 100) each advertising HZ times a second (default 10) for SECONDS
/// (default 60), RSSI wandering between -95 and -40 dBm. It is the load for measuring the real
/// monitor (`beacontop monitor OUT --loop`, `beacontop-bench monitor`; docs/benchmarks.md): 100 at
/// 10 Hz is a busy room's 1,000 adverts/s, 5,000 or 50,000 at 20 Hz a flood of distinct beacons
/// past the tracking cap.
enum MonitorCaptureWriter {
    static func run(_ arguments: [String]) throws {
        guard let out = arguments.first else {
            print("usage: beacontop-bench monitor-capture OUT [BEACONS [SECONDS [HZ]]]")
            return
        }
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 100
        let seconds = arguments.dropFirst(2).first.flatMap(Double.init) ?? 60
        let rate = arguments.dropFirst(3).first.flatMap(Double.init) ?? 10
        let packets = try write(path: out, beacons: count, seconds: seconds, rate: rate)
        print("\(out): \(packets) advertisements, \(count) beacons at \(formatRate(rate)) Hz over \(Int(seconds)) s")
    }

    @discardableResult
    static func write(path: String, beacons count: Int, seconds: Double, rate: Double) throws -> Int {
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        var writer = try BTSnoopWriter(path: path, replacing: true)
        var seed: UInt64 = 0x5EED
        var rssi = [Int](repeating: -70, count: count)
        let start = 1_767_258_000.0
        var packets = 0
        for step in 0..<Int(seconds * rate) {
            for index in 0..<count {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                rssi[index] = min(-40, max(-95, rssi[index] + Int((seed >> 33) % 7) - 3))
                // Each beacon's slot is spread over the interval, as independent beacons are.
                let time = start + (Double(step) + Double(index) / Double(count)) / rate
                let frame = IBeaconFrame(uuid: uuid, major: UInt16(index / 100), minor: UInt16(index % 100), measuredPower: -59)
                let advertisement = Advertisement(
                    timestamp: time, address: BDAddress(rawValue: 0xC0_00_00_00_00_00 | UInt64(index)), addressType: .randomDevice,
                    eventKind: .advNonconnInd, rssi: Int8(rssi[index]), data: frame.advertisingData[...]
                )
                try writer.write(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time))
                packets += 1
            }
        }
        return packets
    }

    static func formatRate(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }
}
