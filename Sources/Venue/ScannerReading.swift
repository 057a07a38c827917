/// One scanner's reading of one beacon, whichever kind of scanner sent it: what presence decides on.
public struct ScannerReading: Sendable, Equatable {
    public enum Format: String, Sendable {
        case espresense
        case beacontop
    }

    /// The scanner's name: the last level of an ESPresense topic (an ESP32 node is named by its
    /// room), or a beacontop agent's `--scanner` name.
    public var scanner: String
    /// The beacon's canonical key (`VenueBeaconKey`): `BeaconIdentity.description`, as catalogs
    /// name beacons, whatever form the scanner wrote the id in.
    public var beacon: String
    /// When the venue view received it (its own clock: scanners' clocks are not trusted to agree).
    public var time: Double
    /// The scanner's own time for the reading, when its format carries one (beacontop's does).
    public var sentAt: Double?
    /// Filtered RSSI as the scanner reports it (dBm), before any per-scanner offset.
    public var rssi: Double
    /// The beacon's power at 1 m (dBm) as the scanner resolved it.
    public var measuredPower: Double?
    /// The scanner's distance estimate (m).
    public var distance: Double?
    public var format: Format

    public init(
        scanner: String, beacon: String, time: Double, sentAt: Double? = nil, rssi: Double,
        measuredPower: Double? = nil, distance: Double? = nil, format: Format = .beacontop
    ) {
        self.scanner = scanner
        self.beacon = beacon
        self.time = time
        self.sentAt = sentAt
        self.rssi = rssi
        self.measuredPower = measuredPower
        self.distance = distance
        self.format = format
    }
}
