extension TickLineEncoder {
    /// Appends one beacon object exactly as it appears in a tick line's `beacons` array (README
    /// "NDJSON tick lines"): the venue agent publishes it as its own richer reading.
    public static func appendBeaconObject(_ reading: BeaconReading, to w: inout JSONWriter) {
        let strings = reading.id.utf8.count + reading.addressText.utf8.count + (reading.exhibit?.name.utf8.count ?? 0)
        w.withCursor(reserving: 1024 + 6 * strings) { cursor in appendBeacon(reading, to: &cursor) }
    }
}
