import BeaconFormats
import Monitor

/// Deterministic made-up beacons for the render and monitor benchmarks: a linear congruential
/// generator, so every run draws the same frames.
struct SyntheticBeacons {
    private var seed: UInt64
    private(set) var rows: [BeaconRowModel]

    init(count: Int, seed: UInt64 = 0x5EED) {
        self.seed = seed
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        rows = []
        rows.reserveCapacity(count)
        for index in 0..<count {
            let identity = BeaconIdentity.iBeacon(uuid: uuid, major: UInt16(index / 100), minor: UInt16(index % 100))
            rows.append(BeaconRowModel(
                identity: identity, exhibitName: index % 3 == 0 ? nil : "Exhibit number \(index)", rssi: -70,
                rssiHistory: Array(repeating: -70, count: 60), accuracy: 3, accuracyRange: 2...4.5,
                accuracyHistory: Array(repeating: 3, count: 60), proximity: .near, measuredPower: -59,
                packetsPerSecond: 10, secondsSinceSeen: 0.1, lastRawFrame: Array(repeating: 0x42, count: 30),
                filterEstimates: [FilterEstimate(filterName: "kalman", accuracy: 3)]))
        }
        for index in 0..<count { advance(index) }
    }

    private mutating func random(_ range: ClosedRange<Int>) -> Int {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
    }

    /// One received advertisement for beacon `index`: RSSI random-walks, distance follows it.
    mutating func advance(_ index: Int) {
        var row = rows[index]
        let rssi = min(-35, max(-100, (row.rssi ?? -70) + random(-3...3)))
        row.rssi = rssi
        row.rssiHistory.removeFirst()
        row.rssiHistory.append(rssi)
        let accuracy = pow10((-59.0 - Double(rssi)) / 20)
        row.accuracy = accuracy
        row.accuracyRange = (accuracy * 0.7)...(accuracy * 1.4)
        row.accuracyHistory.removeFirst()
        row.accuracyHistory.append(accuracy)
        row.proximity = accuracy < 0.5 ? .immediate : (accuracy < 3 ? .near : .far)
        row.secondsSinceSeen = Double(random(0...9)) / 10
        rows[index] = row
    }

    private func pow10(_ x: Double) -> Double {
        var result = 1.0
        var base = 10.0
        var exponent = abs(x)
        // exp(x ln 10) without Foundation: integer part by squaring, fraction by a short series.
        var whole = Int(exponent)
        exponent -= Double(whole)
        while whole > 0 {
            if whole & 1 == 1 { result *= base }
            base *= base
            whole >>= 1
        }
        let y = exponent * 2.302585092994046
        var term = 1.0
        var series = 1.0
        for n in 1...12 {
            term *= y / Double(n)
            series += term
        }
        result *= series
        return x < 0 ? 1 / result : result
    }
}
