import BeaconFormats
import HCI

/// `beacontop-bench h4-framer [N]`: an H4 byte stream of N iBeacon advertising-report events
/// (44 bytes each, what a UART or TCP controller sends), fed to `H4Framer` in 4096-byte chunks
/// as a transport's reads would come; prints packets and megabytes per second.
enum H4FramerBenchmark {
    static func run(_ arguments: [String]) {
        let count = arguments.first.flatMap { Int($0) } ?? 2_000_000
        let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2, measuredPower: -59)
        let ad = Advertisement(timestamp: 0, address: BDAddress(rawValue: 0xC0_0000_0001), addressType: .randomDevice,
                               eventKind: .advNonconnInd, rssi: -60, data: frame.advertisingData[...])
        let packet = AdvertisingReportEncoder.legacyReportPacket([ad], at: 0).h4Bytes
        let perChunk = 4096 / packet.count
        var chunk: [UInt8] = []
        for _ in 0..<perChunk { chunk += packet }
        // Cut chunks off-packet so headers straddle reads, as they do on a real stream.
        let skew = packet.count / 2
        let rotated = Array(chunk[skew...] + chunk[..<skew])
        var framer = H4Framer()
        framer.append(chunk[..<skew])
        var packets = 0
        var bytes = 0
        let clock = ContinuousClock()
        let start = clock.now
        while packets < count {
            framer.append(rotated)
            bytes += rotated.count
            while let output = framer.next() {
                if case .packet = output { packets += 1 }
            }
        }
        let seconds = (clock.now - start) / .seconds(1)
        let rate = Int(Double(packets) / seconds)
        let megabytes = Int(Double(bytes) / seconds / 1e6)
        let elapsed = (seconds * 1000).rounded() / 1000
        print("h4-framer: \(packets) packets, \(bytes / 1_000_000) MB in \(elapsed) s: \(rate) packets/s, \(megabytes) MB/s")
    }
}
