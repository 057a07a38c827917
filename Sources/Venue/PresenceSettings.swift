/// The presence rule's parameters (docs/venue.md "The presence rule"). Chosen on the simulated
/// venue's tuning seeds 1-4 only; the tests assert the targets on seeds 101-108, which chose nothing.
public struct PresenceSettings: Sendable, Equatable {
    /// Seconds a scanner's reading counts: a scanner that stops reporting a beacon (it left, or the
    /// scanner died) stops holding it there after this.
    public var readingLifetime: Double
    /// Seconds without any message after which a scanner is dead (agents publish telemetry every
    /// 10 s, so a live one is never silent this long); a retained `offline` status kills it at once.
    public var scannerSilence: Double
    /// dB a challenger room must lead by before its lead counts as evidence.
    public var hysteresis: Double
    /// Accumulated lead beyond the hysteresis (dB·s) that moves a beacon to the challenger room.
    public var evidenceThreshold: Double
    /// The most lead (dB) one second can add, so one wild reading is not a move by itself.
    public var leadClip: Double
    /// Seconds a beacon stays in a room before it can move again.
    public var minimumHold: Double
    /// Readings below this level (dB relative to the beacon's power at 1 m) are ignored: at
    /// n = 2.5 that is beyond about 40 m.
    public var floorLevel: Double
    /// The power at 1 m assumed when a scanner does not send one (iBeacon's customary -59 dBm).
    public var defaultMeasuredPower: Double
    /// Reference-beacon readings in the median an offset is learnt from.
    public var referenceSamples: Int
    /// Most scanners the catalog does not list that the view keeps at once (docs/venue.md
    /// "Invented scanner names"): every name heard is a scanner with a room of its own, listed and
    /// announced, so a publisher inventing names (a firmware putting its uptime in its room name,
    /// anyone on an open broker) grew the view, its frames and the broker's retained store without
    /// end. A new name beyond it takes the place of the unlisted scanner dead longest, or is refused.
    public var unlistedScannerLimit: Int

    public init(
        readingLifetime: Double = 4, scannerSilence: Double = 25, hysteresis: Double = 4, evidenceThreshold: Double = 12,
        leadClip: Double = 4, minimumHold: Double = 2, floorLevel: Double = -40, defaultMeasuredPower: Double = -59,
        referenceSamples: Int = 31, unlistedScannerLimit: Int = 1_000
    ) {
        self.readingLifetime = readingLifetime
        self.scannerSilence = scannerSilence
        self.hysteresis = hysteresis
        self.evidenceThreshold = evidenceThreshold
        self.leadClip = leadClip
        self.minimumHold = minimumHold
        self.floorLevel = floorLevel
        self.defaultMeasuredPower = defaultMeasuredPower
        self.referenceSamples = referenceSamples
        self.unlistedScannerLimit = unlistedScannerLimit
    }
}
