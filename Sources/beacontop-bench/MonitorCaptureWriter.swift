import BeaconFormats
import Captures
import HCI

/// `beacontop-bench monitor-capture OUT [beacons] [seconds]`: writes a btsnoop capture of `beacons`
/// iBeacons (default 100) each advertising at 10 Hz for `seconds` (default 60), RSSI wandering
/// between -95 and -40 dBm. It is the load for measuring the real monitor (source, ranging, every
/// filter, snapshots, render, ncurses) with `beacontop monitor OUT --loop` (docs/benchmarks.md).
enum MonitorCaptureWriter {
    static func run(_ arguments: [String]) throws {
        guard let out = arguments.first else {
            print("usage: beacontop-bench monitor-capture OUT [beacons] [seconds]")
            return
        }
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 100
        let seconds = arguments.dropFirst(2).first.flatMap(Double.init) ?? 60
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        var writer = try BTSnoopWriter(path: out)
        var seed: UInt64 = 0x5EED
        var rssi = [Int](repeating: -70, count: count)
        let start = 1_767_258_000.0
        var packets = 0
        for step in 0..<Int(seconds * 10) {
            for index in 0..<count {
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                rssi[index] = min(-40, max(-95, rssi[index] + Int((seed >> 33) % 7) - 3))
                // Each beacon's 10 Hz slot is spread over the 100 ms, as independent beacons are.
                let time = start + Double(step) / 10 + Double(index) / Double(count) / 10
                let frame = IBeaconFrame(uuid: uuid, major: UInt16(index / 100), minor: UInt16(index % 100), measuredPower: -59)
                let advertisement = Advertisement(
                    timestamp: time, address: BDAddress(rawValue: 0xC0_00_00_00_00_00 | UInt64(index)), addressType: .randomDevice,
                    eventKind: .advNonconnInd, rssi: Int8(rssi[index]), data: frame.advertisingData[...]
                )
                try writer.write(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time))
                packets += 1
            }
        }
        print("\(out): \(packets) advertisements, \(count) beacons at 10 Hz over \(Int(seconds)) s")
    }
}
