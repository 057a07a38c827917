import NDJSON

extension TickLineEncoder {
    /// Appends one beacon object exactly as it appears in a tick line's `beacons` array
    /// (docs/formats.md "NDJSON tick lines"): the venue agent publishes it as its own richer reading.
    public static func appendBeaconObject(_ reading: BeaconReading, to w: inout JSONWriter) {
        w.withCursor(reserving: reservation(reading)) { cursor in appendBeacon(reading, to: &cursor) }
        w.byte(UInt8(ascii: "}"))
    }
}
