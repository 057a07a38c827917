import Testing
@testable import Ranging

/// The arrival ring's walks against a plain reference over the same packets kept in an array:
/// through wrap-around, a ring not yet full, repeated and out-of-order times, and empty windows.
@Suite struct ArrivalRingTests {
    /// The packets kept, newest first, as the ring should see them.
    struct Reference {
        let capacity: Int
        var packets: [(time: Double, rssi: Int)] = []

        mutating func append(_ time: Double, _ rssi: Int) {
            packets.insert((time, max(-128, min(127, rssi))), at: 0)
            if packets.count > capacity { packets.removeLast() }
        }

        func newer(than threshold: Double) -> Int {
            packets.prefix { $0.time > threshold }.count
        }

        func packetsPerSecond(at time: Double, window: Double, firstSeen: Double) -> Double {
            let recent = newer(than: time - window)
            guard recent > 0 else { return 0 }
            if recent == capacity, recent >= 2 {
                let span = packets[0].time - packets[recent - 1].time
                return span > 0 ? Double(recent - 1) / span : 0
            }
            return Double(recent) / min(window, max(time - firstSeen, 1))
        }

        var advertisingInterval: Double? {
            let gaps = zip(packets, packets.dropFirst()).prefix(16).map { $0.time - $1.time }.filter { $0 > 0 }.sorted()
            return gaps.isEmpty ? nil : gaps[gaps.count / 2]
        }

        func quantile(at time: Double, window: Double, quantile: Double, minimumCount: Int) -> Double? {
            let used = min(max(newer(than: time - window), min(minimumCount, packets.count)), packets.count)
            guard used > 0 else { return nil }
            let sorted = packets.prefix(used).map { Double($0.rssi) }.sorted()
            let rank = quantile * Double(used - 1)
            let low = Int(rank)
            let high = min(low + 1, used - 1)
            return sorted[low] + (sorted[high] - sorted[low]) * (rank - Double(low))
        }
    }

    @Test(arguments: [2, 5, 64])
    func walksAgreeWithAPlainReference(capacity: Int) {
        var random = SeededNoise(seed: UInt64(capacity))
        var ring = ArrivalRing(capacity: capacity)
        var reference = Reference(capacity: capacity)
        var time = 1000.0
        let firstSeen = time
        for step in 0..<400 {
            // Mostly 100 ms apart; sometimes the same time, a step back, or a long silence.
            switch step % 23 {
            case 5: break
            case 11: time -= 0.03
            case 17: time += 7
            default: time += 0.05 + 0.1 * random.uniform()
            }
            let rssi = -60 + Int((random.uniform() - 0.5) * 40) + (step % 31 == 0 ? 200 : 0)
            ring.append(time: time, rssi: rssi)
            reference.append(time, rssi)
            #expect(ring.count == reference.packets.count)
            // A window that starts exactly at a packet's time: that packet is not in it.
            let edge = reference.packets[min(3, reference.packets.count - 1)].time + 2.0 - time
            for (offset, window) in [(0.0, 10.0), (0.5, 2.0), (3, 1.0), (-0.2, 0.05), (edge, 2.0)] {
                let now = time + offset
                #expect(ring.packetsPerSecond(at: now, window: window, firstSeen: firstSeen)
                        == reference.packetsPerSecond(at: now, window: window, firstSeen: firstSeen))
                #expect(ring.rssiQuantile(at: now, window: window, quantile: 0.5, minimumCount: 3)
                        == reference.quantile(at: now, window: window, quantile: 0.5, minimumCount: 3))
                #expect(ring.rssiQuantile(at: now, window: window, quantile: 0.2, minimumCount: 3)
                        == reference.quantile(at: now, window: window, quantile: 0.2, minimumCount: 3))
            }
            #expect(ring.advertisingInterval == reference.advertisingInterval)
        }
    }

    @Test func anEmptyRingHasNoRateIntervalOrLevel() {
        let ring = ArrivalRing(capacity: 8)
        #expect(ring.packetsPerSecond(at: 10, window: 10, firstSeen: 0) == 0)
        #expect(ring.advertisingInterval == nil)
        #expect(ring.rssiQuantile(at: 10, window: 2, quantile: 0.5, minimumCount: 3) == nil)
    }
}
