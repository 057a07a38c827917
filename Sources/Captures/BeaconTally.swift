import BeaconFormats
import HCI

/// How often one measured power was seen in a beacon's frames.
public struct MeasuredPowerCount: Sendable, Equatable {
    public var dBm: Int
    public var frames: Int

    public init(dBm: Int, frames: Int) {
        self.dBm = dBm
        self.frames = frames
    }
}

/// Running statistics of one beacon over a capture, in constant memory per beacon: RSSI goes into
/// a 256-bin histogram (RSSI is a whole dBm in an Int8), so the exact median needs no list of
/// samples however long the file.
public struct BeaconTally: Sendable {
    public let identity: BeaconIdentity
    public private(set) var frames = 0
    /// Frames whose report had no RSSI (127, or a sniffer without signal power).
    public private(set) var framesWithoutRSSI = 0
    /// Measured power at 1 m as the frames claimed it, in order of first appearance.
    public private(set) var measuredPowers: [MeasuredPowerCount] = []
    public private(set) var firstSeen: Double = .infinity
    public private(set) var lastSeen: Double = -.infinity
    public private(set) var lastAddress: BDAddress?
    private var rssiHistogram = [UInt32](repeating: 0, count: 256)

    public init(identity: BeaconIdentity) { self.identity = identity }

    public mutating func add(_ sighting: BeaconSighting) {
        frames += 1
        if let rssi = sighting.rssi {
            rssiHistogram[Int(rssi) + 128] &+= 1
        } else {
            framesWithoutRSSI += 1
        }
        if let power = sighting.frame.measuredPower {
            if let index = measuredPowers.firstIndex(where: { $0.dBm == power }) {
                measuredPowers[index].frames += 1
            } else {
                measuredPowers.append(MeasuredPowerCount(dBm: power, frames: 1))
            }
        }
        firstSeen = min(firstSeen, sighting.timestamp)
        lastSeen = max(lastSeen, sighting.timestamp)
        lastAddress = sighting.address
    }

    public var rssiMinimum: Int? { rssiHistogram.firstIndex { $0 > 0 }.map { $0 - 128 } }
    public var rssiMaximum: Int? { rssiHistogram.lastIndex { $0 > 0 }.map { $0 - 128 } }

    /// The median RSSI: the middle sample, or the mean of the two middle ones for an even count.
    public var rssiMedian: Double? {
        let count = frames - framesWithoutRSSI
        guard count > 0 else { return nil }
        let lower = rssiValue(atRank: (count - 1) / 2)
        let upper = rssiValue(atRank: count / 2)
        return Double(lower + upper) / 2
    }

    private func rssiValue(atRank rank: Int) -> Int {
        var seen = 0
        for (bin, n) in rssiHistogram.enumerated() {
            seen += Int(n)
            if seen > rank { return bin - 128 }
        }
        return 127
    }
}
