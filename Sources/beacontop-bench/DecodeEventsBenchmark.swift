import BeaconFormats
import Glibc
import HCI

/// `beacontop-bench decode-events [N]`: N in-memory LE Advertising Report events (one iBeacon
/// report each, 4096 distinct ones cycled, as a live source would hand them over) through the one
/// sighting decoder (`BeaconSightingDecoder`); prints reports per second. The hot path of every
/// source, without file I/O, so it isolates the decoders.
enum DecodeEventsBenchmark {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap { Int($0) } ?? 10_000_000
        let pool = (0..<4096).map { index -> HCIPacket in
            let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: UInt16(index >> 8),
                                     minor: UInt16(index), measuredPower: -59)
            let ad = Advertisement(timestamp: 0, address: BDAddress(rawValue: 0xC0_0000_0000 | UInt64(index % 64)),
                                   addressType: .randomDevice, eventKind: .advNonconnInd, rssi: Int8(-40 - index % 50),
                                   data: frame.advertisingData[...])
            return AdvertisingReportEncoder.legacyReportPacket([ad], at: Double(index))
        }
        var decoder = BeaconSightingDecoder()
        var reports = 0
        var frames = 0
        var checksum = 0
        var errors = 0
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUSeconds()
        pool.withUnsafeBufferPointer { pool in
            for n in 0..<count {
                do {
                    try decoder.decode(pool[n & 4095]) { sighting in
                        reports += 1
                        if case .iBeacon(let beacon) = sighting.frame {
                            frames += 1
                            checksum &+= Int(beacon.minor) &+ Int(beacon.measuredPower) &+ Int(sighting.rssi ?? 0)
                        }
                    }
                } catch {
                    errors += 1
                }
            }
        }
        let cpu = threadCPUSeconds() - cpuStart
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print("decode-events: \(reports) reports, \(frames) iBeacon frames, \(errors) errors;"
            + " wall \(rounded(seconds)) s = \(rounded(Double(reports) / seconds / 1e6)) M reports/s;"
            + " thread CPU \(rounded(cpu)) s = \(rounded(Double(reports) / cpu / 1e6)) M reports/s (checksum \(checksum))")
    }

    /// CPU time of this thread: on a machine shared with other work, wall time also counts the
    /// time the benchmark waited for a core. Both are printed.
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
