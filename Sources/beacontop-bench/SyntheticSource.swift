import BeaconFormats
import Foundation
import HCI
import PacketSources
import Synchronization

/// Made-up iBeacons delivered live, as a radio would: every 10 ms a thread hands over the
/// advertisements due in those 10 ms (BEACONS x HZ a second in all, spread evenly), stamped with the
/// wall time, RSSI random-walking between -95 and -40 dBm. `.dropWhenFull`: a monitor that falls
/// behind loses packets and counts them, as it would on air. Deterministic apart from the clock.
final class SyntheticSource: PacketSource {
    let name = "synthetic"
    private let beacons: Int
    private let rate: Double
    private let stopped = Atomic<Bool>(false)

    init(beacons: Int, rate: Double) {
        self.beacons = max(1, beacons)
        self.rate = max(0.1, rate)
    }

    func start(into sink: any SourceSink) {
        let thread = Thread { [self] in run(into: sink) }
        thread.name = "beacontop-bench synthetic source"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    private func run(into sink: any SourceSink) {
        sink.deliver([.notice(.connected(source: name))], .dropWhenFull)
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        var seed: UInt64 = 0x5EED
        var rssi = [Int](repeating: -70, count: beacons)
        let start = SourceInbox.wallClock()
        var sent = 0
        while !stopped.load(ordering: .relaxed) {
            let now = SourceInbox.wallClock()
            let due = Int((now - start) * rate * Double(beacons))
            // A radio that fell behind does not send what it missed later: at most 100 ms of
            // catch-up, the rest never happened (and it is no backlog in memory either).
            sent = max(sent, due - Int(0.1 * rate * Double(beacons)))
            var events: [SourceEvent] = []
            events.reserveCapacity(max(0, due - sent))
            while sent < due {
                let index = sent % beacons
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                rssi[index] = min(-40, max(-95, rssi[index] + Int((seed >> 33) % 7) - 3))
                let frame = IBeaconFrame(uuid: uuid, major: UInt16(index / 100), minor: UInt16(index % 100), measuredPower: -59)
                let advertisement = Advertisement(
                    timestamp: now, address: BDAddress(rawValue: 0xC0_00_00_00_00_00 | UInt64(index)), addressType: .randomDevice,
                    eventKind: .advNonconnInd, rssi: Int8(rssi[index]), data: frame.advertisingData[...]
                )
                events.append(.packet(AdvertisingReportEncoder.legacyReportPacket([advertisement], at: now)))
                sent += 1
            }
            sink.deliver(events, .dropWhenFull)
            Thread.sleep(forTimeInterval: 0.01)
        }
        sink.deliver([.notice(.ended(source: name, reason: "stopped"))], .dropWhenFull)
        sink.finish()
    }
}
