import NDJSON

/// The venue view's NDJSON line (`scan mqtt://BROKER --json`, `replay` and `scan` of a venue
/// recording; docs/formats.md "NDJSON venue lines"): once a second of receive time, every beacon
/// with its room, the scanner that places it there and the runner-up, then the visit events
/// decided since the previous line.
///
/// ```json
/// {"t":1767225601.0,"beacons":[{"id":"E2C5…:100:1","room":"hall-a","scanner":"pi-a","rssi":-61.0,"distance":1.8,
///   "runnerUp":{"room":"hall-b","scanner":"pi-b","rssi":-80.0,"distance":9.1}}],"events":[{"type":"enter",…}]}
/// ```
public enum VenueTickLine {
    public static func appendLine(time: Double, beacons: [VenueBeacon], events: [VisitEvent], to w: inout JSONWriter) {
        w.raw("{\"t\":")
        w.number(time, decimals: 3, keepPoint: true)
        w.raw(",\"beacons\":[")
        for (position, beacon) in beacons.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"id\":")
            w.string(beacon.id)
            w.raw(",\"room\":")
            if let room = beacon.room { w.string(room) } else { w.null() }
            w.raw(",\"scanner\":")
            if let best = beacon.best {
                w.string(best.scanner)
                appendReading(best, to: &w)
            } else {
                // Null, not absent: a beacon with no live reading (its scanner gone quiet, as the
                // view's last line shows) dropped both keys, and a strict decoder of the documented
                // shape refused the line.
                w.raw("null,\"rssi\":null,\"distance\":null")
            }
            w.raw(",\"runnerUp\":")
            if let runnerUp = beacon.runnerUp {
                w.raw("{\"room\":")
                w.string(runnerUp.room)
                w.raw(",\"scanner\":")
                w.string(runnerUp.scanner)
                appendReading(runnerUp, to: &w)
                w.byte(UInt8(ascii: "}"))
            } else {
                w.null()
            }
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("],\"events\":[")
        for (position, event) in events.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            for byte in event.json() { w.byte(byte) }
        }
        w.raw("]}\n")
    }

    private static func appendReading(_ reading: RoomPresence.ScannerLevel, to w: inout JSONWriter) {
        w.raw(",\"rssi\":")
        w.number(reading.rssi, decimals: 1)
        w.raw(",\"distance\":")
        if let distance = reading.distance { w.number(distance, decimals: 2) } else { w.null() }
    }
}
