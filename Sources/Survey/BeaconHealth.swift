import BeaconFormats
import HCI
import Ranging

/// One transmitter's health at a moment: what the health view, the detail pane and NDJSON show.
public struct BeaconHealth: Sendable, Equatable {
    public var address: BDAddress
    /// The identities it sends (UID, URL, iBeacon...), most recent last: a TLM is tied to these by
    /// the address they share.
    public var identities: [BeaconIdentity]
    /// The catalog entry of the first identity that has one.
    public var exhibit: Exhibit?
    public var firstSeen: Double
    public var lastSeen: Double
    /// Beacon frames heard, TLM included.
    public var frames: Int
    public var lastRSSI: Int?
    /// The last TLM, plain or encrypted; nil when it sends none.
    public var telemetry: Telemetry?
    /// The advertising interval measured from arrival times; nil until enough events were heard,
    /// or when their gaps do not decide it (`intervalUndecided`).
    public var interval: AdvertisingIntervalEstimate?
    /// Enough events were heard, but their gaps did not tell the period from its multiples
    /// (bunched arrival times): no interval, and no interval finding.
    public var intervalUndecided = false
    /// The 1 m power its last identity frame carried, as sent.
    public var frameMeasuredPower: Int?
    /// Findings, in the order of `HealthFinding`'s cases.
    public var findings: [HealthFinding]

    public init(
        address: BDAddress, identities: [BeaconIdentity], exhibit: Exhibit?, firstSeen: Double, lastSeen: Double,
        frames: Int, lastRSSI: Int?, telemetry: Telemetry?, interval: AdvertisingIntervalEstimate?,
        frameMeasuredPower: Int?, findings: [HealthFinding]
    ) {
        self.address = address
        self.identities = identities
        self.exhibit = exhibit
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.frames = frames
        self.lastRSSI = lastRSSI
        self.telemetry = telemetry
        self.interval = interval
        self.frameMeasuredPower = frameMeasuredPower
        self.findings = findings
    }

    /// A name to show: the exhibit's, else the first identity's id, else the address (a TLM-only
    /// transmitter).
    public var name: String {
        exhibit?.name ?? identities.first?.description ?? "tlm:\(address)"
    }

    /// Assesses a transmitter's record against the catalog and the thresholds.
    init(_ record: TransmitterRecord, catalog: ExhibitCatalog?, configuration: HealthConfiguration) {
        let exhibit = catalog.flatMap { catalog in
            record.identities.lazy.compactMap { catalog.exhibit(forID: $0.description) }.first
        }
        let interval = AdvertisingIntervalEstimate.estimate(arrivals: record.eventTimes)
        var findings: [HealthFinding] = []
        let threshold = exhibit?.lowBatteryMillivolts ?? configuration.lowBatteryMillivolts
        if let millivolts = record.telemetry?.batteryMillivolts, millivolts < threshold {
            findings.append(.lowBattery(millivolts: millivolts, threshold: threshold))
        }
        if let expected = exhibit?.advertisingInterval, let measured = interval?.period,
           !Self.intervalMatches(measured: measured, expected: expected, tolerance: configuration.intervalTolerance) {
            findings.append(.intervalMismatch(measured: measured, expected: expected))
        }
        if let frame = record.frameMeasuredPower {
            if !ResolvedMeasuredPower.isPlausible(frame) {
                findings.append(.nonsenseMeasuredPower(frame: frame))
            } else if let calibrated = exhibit?.measuredPower, abs(Double(frame) - calibrated) > configuration.measuredPowerTolerance {
                findings.append(.measuredPowerDiffers(frame: frame, calibrated: calibrated))
            }
        }
        if record.reboots > 0 { findings.append(.rebooted(times: record.reboots)) }
        self.init(
            address: record.address, identities: record.identities, exhibit: exhibit, firstSeen: record.firstSeen,
            lastSeen: record.lastSeen, frames: record.frames, lastRSSI: record.lastRSSI, telemetry: record.telemetry,
            interval: interval, frameMeasuredPower: record.frameMeasuredPower, findings: findings
        )
        intervalUndecided = interval == nil && AdvertisingIntervalEstimate.hasEnoughEvents(record.eventTimes)
    }

    /// The measured period is the configured interval plus the mean random advertising delay
    /// (5 ms, `AdvertisingIntervalEstimate`); it matches when within `tolerance` of that.
    static func intervalMatches(measured: Double, expected: Double, tolerance: Double) -> Bool {
        let sent = expected + 0.005
        return abs(measured - sent) <= tolerance * sent
    }
}
