import BeaconFormats
import Captures
import HCI
#if canImport(Glibc)
import Glibc
#endif

/// `beacontop-bench decode-file [N [HZ]]`: decoding speed of a btsnoop file of N iBeacon advertising
/// reports (default 1,000,000; one report per event, 50 distinct beacons, each advertising HZ times
/// a second, default 20) to beacon frames. The file is generated once under /tmp with
/// `BTSnoopWriter` and reused (the replay benchmarks in docs/benchmarks.md read it too).
enum DecodeFileBenchmark {
    static func run(_ arguments: ArraySlice<String>) throws {
        let count = arguments.first.flatMap { Int($0) } ?? 1_000_000
        let rate = arguments.dropFirst().first.flatMap { Double($0) } ?? 20
        let path = rate == 20 ? "/tmp/beacontop-bench-v2-\(count).btsnoop" : "/tmp/beacontop-bench-v2-\(count)-\(formatRate(rate))hz.btsnoop"
        if access(path, R_OK) != 0 {
            let start = now()
            try generate(count: count, rate: rate, path: path)
            print("generated \(path) (\(count) reports) in \(format(now() - start)) s")
        }
        // CPU time of this (single-threaded) process is the figure on a shared machine: wall
        // time also counts the moments other processes held the core.
        var best = Double.infinity
        for round in 1...3 {
            let start = now()
            let cpuStart = now(CLOCK_PROCESS_CPUTIME_ID)
            var frames = 0
            var checksum = 0
            var reader = try CaptureReader(path: path)
            var decoder = BeaconSightingDecoder()
            var packet = HCIPacket.empty
            while try reader.next(into: &packet) {
                try decoder.decode(packet) { sighting in
                    frames += 1
                    if case .iBeacon(let frame) = sighting.frame { checksum &+= Int(frame.minor) &+ Int(sighting.rssi ?? 0) }
                }
            }
            let elapsed = now() - start
            let cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpuStart
            best = min(best, cpu)
            print("round \(round): \(frames) frames from \(reader.recordCount) records in \(format(elapsed)) s wall"
                + " (\(format(Double(frames) / elapsed / 1e6)) M/s), \(format(cpu)) s CPU"
                + " (\(format(Double(frames) / cpu / 1e6)) M reports/s per core) [checksum \(checksum)]")
        }
        print("best: \(format(Double(count) / best / 1e6)) M reports/s per core (CPU time)")
    }

    static func formatRate(_ rate: Double) -> String {
        rate == rate.rounded() ? String(Int(rate)) : String(rate)
    }

    static func generate(count: Int, rate: Double, path: String) throws {
        let temporary = path + ".partial"
        var writer = try BTSnoopWriter(path: temporary, replacing: true)
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        let beacons = (0..<50).map { index in
            IBeaconFrame(uuid: uuid, major: 100, minor: UInt16(index + 1), measuredPower: -59).advertisingData
        }
        for index in 0..<count {
            let time = 1_700_000_000 + Double(index) / (50 * rate)
            let beacon = index % 50
            let advertisement = Advertisement(
                timestamp: time, address: BDAddress(rawValue: 0xC0FF_EE00_0000 | UInt64(beacon)), addressType: .randomDevice,
                eventKind: .advNonconnInd, rssi: Int8(-40 - (index / 50 * 7 + beacon) % 50), data: beacons[beacon][...]
            )
            try writer.write(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time))
        }
        guard rename(temporary, path) == 0 else { throw CaptureError.writeFailed(path: path, reason: "rename failed") }
    }

    static func now(_ clock: clockid_t = CLOCK_MONOTONIC) -> Double {
        var spec = timespec()
        clock_gettime(clock, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
