/// The last `capacity` packets of one beacon, arrival time and RSSI, in a ring: what the packet
/// rate, the advertising interval and the nearest-exhibit window are computed from at each tick.
///
/// Every query walks from the newest packet back. They run per beacon per tick, so they read the
/// ring through buffer pointers in two straight segments (newest down to slot 0, then the end of
/// the ring down): no bounds check, wrap test or division per packet (callgrind: these walks were
/// a fifth of a tick).
struct ArrivalRing: Sendable {
    private var times: [Double]
    /// RSSI as HCI reports it (Int8, Core 5.4 Vol 4 Part E 7.7.65.2): a 64-packet ring of it is one
    /// cache line.
    private var levels: [Int8]
    /// The slot the next packet goes to.
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        times = Array(repeating: 0, count: capacity)
        levels = Array(repeating: 0, count: capacity)
    }

    var capacity: Int { times.count }

    mutating func append(time: Double, rssi: Int) {
        times[head] = time
        levels[head] = Int8(clamping: rssi)
        head += 1
        if head == times.count { head = 0 }
        if count < times.count { count += 1 }
    }

    /// Calls `body` with the slots of the newest `limit` packets, newest first, until it returns false.
    @inline(__always)
    private func walk(_ limit: Int, _ body: (Int) -> Bool) {
        var remaining = min(limit, count)
        var slot = head - 1
        while remaining > 0 {
            if slot < 0 { slot = times.count - 1 }
            if !body(slot) { return }
            slot -= 1
            remaining -= 1
        }
    }

    /// How many of the newest packets arrived after `threshold`, counted until the first that did not.
    private func countNewer(than threshold: Double) -> Int {
        times.withUnsafeBufferPointer { ring in
            var newer = 0
            walk(count) { slot in
                guard ring[slot] > threshold else { return false }
                newer += 1
                return true
            }
            return newer
        }
    }

    /// Packets per second over the last `window` seconds (or since `firstSeen`, or over the ring
    /// when the ring does not reach back that far; at least 1 s).
    func packetsPerSecond(at time: Double, window: Double, firstSeen: Double) -> Double {
        let recent = countNewer(than: time - window)
        guard recent > 0 else { return 0 }
        if recent == capacity, recent >= 2 {
            let span = times.withUnsafeBufferPointer { ring in ring[newest(0)] - ring[newest(recent - 1)] }
            return span > 0 ? Double(recent - 1) / span : 0
        }
        // A beacon heard for less than a second has no meaningful rate yet: count over 1 s.
        let span = min(window, max(time - firstSeen, 1))
        return Double(recent) / span
    }

    /// The slot of the packet `back` packets before the newest; `back < count`.
    private func newest(_ back: Int) -> Int {
        let slot = head - 1 - back
        return slot < 0 ? slot + times.count : slot
    }

    /// The median of the last (up to) 16 gaps between arrivals: the advertising interval as
    /// received, missed packets included. Insertion sort in a stack buffer: no allocation per tick.
    var advertisingInterval: Double? {
        let gapCount = min(count - 1, 16)
        guard gapCount >= 1 else { return nil }
        return times.withUnsafeBufferPointer { ring in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 16) { gaps -> Double? in
                var filled = 0
                var later = ring[newest(0)]
                walk(gapCount + 1) { slot in
                    let gap = later - ring[slot]
                    later = ring[slot]
                    // The first slot is the newest itself: a gap of 0, skipped like any other.
                    guard gap > 0 else { return true }
                    var position = filled
                    while position > 0, gaps[position - 1] > gap {
                        gaps[position] = gaps[position - 1]
                        position -= 1
                    }
                    gaps[position] = gap
                    filled += 1
                    return true
                }
                return filled == 0 ? nil : gaps[filled / 2]
            }
        }
    }

    /// The mean of the gaps `advertisingInterval` takes the median of (the newest 16, zero gaps
    /// skipped). Missed packets lengthen the mean and hardly the median, so median / mean is the
    /// share of due packets that were received.
    var meanGap: Double? {
        let gapCount = min(count - 1, 16)
        guard gapCount >= 1 else { return nil }
        return times.withUnsafeBufferPointer { ring -> Double? in
            let newestTime = ring[newest(0)]
            var later = newestTime, positive = 0
            walk(gapCount + 1) { slot in
                if later - ring[slot] > 0 { positive += 1 }
                later = ring[slot]
                return true
            }
            return positive == 0 ? nil : (newestTime - later) / Double(positive)
        }
    }

    /// Of the newest (up to) 16 gaps between arrivals (`advertisingInterval`'s), how many were
    /// at least `silence` long, and how many there were (zero gaps skipped).
    func gaps(reaching silence: Double) -> (reaching: Int, gaps: Int) {
        let gapCount = min(count - 1, 16)
        guard gapCount >= 1 else { return (0, 0) }
        return times.withUnsafeBufferPointer { ring in
            var later = ring[newest(0)], reaching = 0, positive = 0
            walk(gapCount + 1) { slot in
                let gap = later - ring[slot]
                later = ring[slot]
                if gap > 0 {
                    positive += 1
                    if gap >= silence { reaching += 1 }
                }
                return true
            }
            return (reaching, positive)
        }
    }

    /// A quantile (0.5: the median) of the RSSI of the packets that arrived in the last `window`
    /// seconds before `time`, or of the last `minimumCount` packets when fewer arrived in the window
    /// (only those after `oldest`, when given); nil when nothing was heard. RSSI is an integer, so it
    /// counts instead of sorting: a 256-slot histogram on the stack, cleared only over the range the
    /// window's values span.
    func rssiQuantile(at time: Double, window: Double, quantile: Double, minimumCount: Int, oldest: Double = -.infinity) -> Double? {
        let inWindow = countNewer(than: time - window)
        // The older packets are counted only when the window falls short and a limit is set.
        let available = inWindow < minimumCount && oldest > -.infinity ? countNewer(than: oldest) : count
        let used = min(max(inWindow, min(minimumCount, available)), count)
        guard used > 0 else { return nil }
        let rank = min(max(quantile, 0), 1) * Double(used - 1)
        let lowRank = Int(rank)
        let highRank = min(lowRank + 1, used - 1)
        return levels.withUnsafeBufferPointer { ring in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) { histogram -> Double in
                var lowest = Int.max, highest = Int.min
                walk(used) { slot in
                    let value = Int(ring[slot]) &+ 128
                    lowest = min(lowest, value)
                    highest = max(highest, value)
                    return true
                }
                for value in lowest...highest { histogram[value] = 0 }
                walk(used) { slot in
                    histogram[Int(ring[slot]) &+ 128] &+= 1
                    return true
                }
                // Walk up to the values of rank lowRank and highRank (0-based, in sorted order).
                var seen = 0, low = -1, high = highest, value = lowest
                while value <= highest {
                    seen += Int(histogram[value])
                    if low < 0, seen > lowRank { low = value }
                    if seen > highRank {
                        high = value
                        break
                    }
                    value += 1
                }
                return Double(low - 128) + Double(high - low) * (rank - Double(lowRank))
            }
        }
    }

    /// The mean RSSI of the `newest` packets minus the mean of the ones before them (those of the
    /// `window` seconds up to `previous`, or the last `minimumCount` when fewer, none at or before
    /// `oldest`), with how many each mean took; nil when either side is empty. Means, not medians:
    /// the difference of two means of Gaussian noise has a known variance, which the movement
    /// cue's statistic needs (`MovementCue`).
    func change(newest: Int, since previous: Double, window: Double, minimumCount: Int, oldest: Double) -> (change: Double, new: Int, reference: Int)? {
        times.withUnsafeBufferPointer { ring in
            levels.withUnsafeBufferPointer { rssi in
                var newSum = 0, new = 0, referenceSum = 0, reference = 0
                walk(count) { slot in
                    if new < newest {
                        newSum += Int(rssi[slot])
                        new += 1
                        return true
                    }
                    let time = ring[slot]
                    guard time > oldest, time > previous - window || reference < minimumCount else { return false }
                    referenceSum += Int(rssi[slot])
                    reference += 1
                    return true
                }
                guard new > 0, reference > 0 else { return nil }
                return (Double(newSum) / Double(new) - Double(referenceSum) / Double(reference), new, reference)
            }
        }
    }
}
