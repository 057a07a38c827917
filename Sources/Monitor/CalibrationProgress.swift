import BeaconFormats

/// The calibration wizard's progress (`c`): the adapter collects RSSI at 1 m for the beacon named in
/// `MonitorCommand.startCalibration` and reports here; the monitor only draws it.
public struct CalibrationProgress: Sendable, Equatable {
    public var identity: BeaconIdentity
    /// Exhibit name or short id, for the heading.
    public var name: String
    public var samplesCollected: Int
    public var samplesNeeded: Int
    /// Mean RSSI so far (dBm): the measured power that would be saved.
    public var measuredPower: Double?
    /// Standard deviation of the samples (dB): a large spread means a poor calibration.
    public var spread: Double?
    /// Set once the override was written (the catalog file path).
    public var savedTo: String?
    /// Why the last save failed, until one succeeds.
    public var saveFailure: String?

    public init(
        identity: BeaconIdentity, name: String, samplesCollected: Int, samplesNeeded: Int,
        measuredPower: Double? = nil, spread: Double? = nil, savedTo: String? = nil, saveFailure: String? = nil
    ) {
        self.identity = identity
        self.name = name
        self.samplesCollected = samplesCollected
        self.samplesNeeded = samplesNeeded
        self.measuredPower = measuredPower
        self.spread = spread
        self.savedTo = savedTo
        self.saveFailure = saveFailure
    }

    public var isComplete: Bool { samplesCollected >= samplesNeeded }
}
