import BeaconFormats
import Ranging

/// The calibration wizard's data side (`c`): collects the raw RSSI of one beacon held at 1 m and
/// computes its measured power with `Calibration.measuredPower` (trimmed mean, at least 20
/// samples). Samples keep coming after 20, up to `maximumSamples`, so a longer hold gives a
/// steadier value.
public struct CalibrationRun: Sendable, Equatable {
    public static let samplesNeeded = 20
    public static let maximumSamples = 200

    public let identity: BeaconIdentity
    public let name: String
    public private(set) var samples: [Double] = []
    /// The catalog file the override was written to, once saved.
    public var savedTo: String?
    /// Why the last save failed (`not saved to FILE: REASON`), until one succeeds.
    public var saveFailure: String?

    public init(identity: BeaconIdentity, name: String) {
        self.identity = identity
        self.name = name
    }

    public mutating func add(rssi: Int) {
        guard samples.count < Self.maximumSamples, savedTo == nil else { return }
        samples.append(Double(rssi))
    }

    /// The wizard's screen: progress, and once 20 samples are in, the measured power and spread.
    public var progress: CalibrationProgress {
        var power: Double?
        var spread: Double?
        if let result = try? Calibration.measuredPower(samples: samples, minimumSamples: Self.samplesNeeded) {
            power = result.dBm
            spread = result.spread
        }
        return CalibrationProgress(
            identity: identity, name: name, samplesCollected: samples.count, samplesNeeded: Self.samplesNeeded,
            measuredPower: power, spread: spread, savedTo: savedTo, saveFailure: saveFailure
        )
    }
}
