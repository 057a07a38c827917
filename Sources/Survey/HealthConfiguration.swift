/// The thresholds of beacon health, with their reasons (docs/survey.md "Beacon health").
public struct HealthConfiguration: Sendable, Equatable {
    /// Battery voltage (mV) below which a plain TLM is a low-battery finding, unless the catalog
    /// gives the beacon its own `lowBatteryMillivolts`. 2.6 V: most beacons run on a CR2032
    /// lithium coin cell, which holds about 2.9-3.0 V for most of its life and then falls fast;
    /// beacon makers give 2.6 V as the lowest operating voltage on a CR2032 (C-MAX BC08 datasheet),
    /// while the cell itself is rated down to 2.0 V (Energizer's capacity ratings): warning at
    /// 2.6 V leaves the beacon working while the battery is changed. Beacons on other cells (a
    /// 3.6 V lithium-thionyl chloride cell, for example) need their own threshold in the catalog.
    public var lowBatteryMillivolts = 2600
    /// How far the measured interval may be from the catalog's (as a share of it) before it is a
    /// finding: vendors round their settings (1022.5 ms sold as "1 s", 852 ms as "900 ms"), so a
    /// few percent is not a fault, while a beacon left at a factory setting is off by 2x or more.
    public var intervalTolerance = 0.2
    /// dB by which a frame's 1 m power may differ from the catalog's calibration before it is a
    /// finding: 6 dB is a factor of 2 in distance at n = 2.
    public var measuredPowerTolerance = 6.0
    /// Advertising events kept per transmitter for the interval estimate.
    public var arrivalHistory = 64
    /// Most transmitters tracked at once; a new one beyond this replaces the one heard least
    /// recently.
    public var maxTransmitters = 1024
    /// Beacon identities remembered per transmitter (a beacon sending iBeacon, Eddystone-UID and
    /// URL frames from one address has three).
    public var identitiesPerTransmitter = 4

    public init() {}
}
