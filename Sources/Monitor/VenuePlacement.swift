/// Where a venue's beacon is (a row of `monitor mqtt://BROKER`): its room, the scanner that places
/// it there (the row's RSSI and distance are that scanner's), the runner-up from another room,
/// and every live scanner's reading for the detail pane.
public struct VenuePlacement: Sendable, Equatable {
    public struct ScannerCell: Sendable, Equatable {
        public var scanner: String
        public var room: String
        public var rssi: Double
        /// dB relative to the beacon's power at 1 m, the scanner's offset applied (what presence compares).
        public var level: Double
        public var distance: Double?
        public var age: Double

        public init(scanner: String, room: String, rssi: Double, level: Double, distance: Double?, age: Double) {
            self.scanner = scanner
            self.room = room
            self.rssi = rssi
            self.level = level
            self.distance = distance
            self.age = age
        }
    }

    /// Nil while presence has not decided (the scanner is then the one hearing it best).
    public var room: String?
    public var scanner: String?
    public var runnerUp: ScannerCell?
    /// Strongest first.
    public var scanners: [ScannerCell]

    public init(room: String?, scanner: String?, runnerUp: ScannerCell?, scanners: [ScannerCell]) {
        self.room = room
        self.scanner = scanner
        self.runnerUp = runnerUp
        self.scanners = scanners
    }
}
