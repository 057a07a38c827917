/// The median RSSI of a segment of packets (those since the level last moved), by counting:
/// RSSI comes in whole dBm from -127 to 0, so 128 counters hold a segment of any length, a packet
/// costs one increment and the median one pass over the counters.
///
/// The median is the grouped one (Fechner): within the median's 1 dB bin the packets are taken as
/// spread evenly across it, so the level moves continuously as packets come (a plain median of
/// whole dBm jumps a whole dB, which at 1 m is a 0.15 m jump in distance).
struct SegmentMedian: Sendable {
    private var counts = [UInt32](repeating: 0, count: 128)
    private var total: UInt32 = 0
    /// The last packets, to start a new segment from the ones since a change began.
    private var recent = [Int8](repeating: 0, count: Self.recentCapacity)
    private var recentCount = 0
    private var recentHead = 0
    static let recentCapacity = 16

    mutating func add(_ rssi: Double) {
        guard rssi.isFinite else { return }
        let value = Int8(min(max(rssi.rounded(), -127), 0))
        count(value)
        recent[recentHead] = value
        recentHead = (recentHead + 1) % Self.recentCapacity
        recentCount = min(recentCount + 1, Self.recentCapacity)
    }

    /// Starts a new segment from the last `packets` packets (at most `recentCapacity`).
    mutating func restart(keepingLast packets: Int) {
        for index in counts.indices { counts[index] = 0 }
        total = 0
        let kept = min(max(packets, 1), recentCount)
        guard kept > 0 else { return }
        for back in 1...kept {
            count(recent[(recentHead - back + Self.recentCapacity) % Self.recentCapacity])
        }
    }

    mutating func reset() {
        self = SegmentMedian()
    }

    private mutating func count(_ value: Int8) {
        counts[Int(value) + 127] += 1
        total += 1
        // A segment of 2^30 packets (more than a month at 100 Hz): halve, keeping the shape.
        if total >= 1 << 30 {
            total = 0
            for index in counts.indices { counts[index] /= 2; total += counts[index] }
        }
    }

    /// The grouped median (dBm), or nil for an empty segment.
    var median: Double? {
        guard total > 0 else { return nil }
        let half = Double(total) / 2
        var below = 0.0
        for index in counts.indices where counts[index] > 0 {
            let inBin = Double(counts[index])
            if below + inBin >= half {
                return Double(index - 127) - 0.5 + (half - below) / inBin
            }
            below += inBin
        }
        return nil
    }
}
