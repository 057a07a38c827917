import NDJSON
import Ranging

/// beacontop's own per-beacon message on `beacontop/scanners/<scanner>/readings`: the scanner, its
/// clock, and the full beacon object of the NDJSON tick line (docs/formats.md "NDJSON tick lines"), so a
/// backend gets everything the agent's ranging knows, not only ESPresense's subset.
///
/// ```json
/// {"scanner":"pi-hall-a","t":1767225600.25,"beacon":{"id":"E2C5…:100:1","kind":"ibeacon",…}}
/// ```
public enum ScannerReadingMessage {
    /// Payloads past this are refused unread (a beacon object is under 1 KiB).
    public static let maximumPayload = 16_384

    public static func json(scanner: String, time: Double, reading: BeaconReading) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.raw("{\"scanner\":")
        w.string(scanner)
        w.raw(",\"t\":")
        w.number(time, decimals: 6, keepPoint: true)
        w.raw(",\"beacon\":")
        TickLineEncoder.appendBeaconObject(reading, to: &w)
        w.raw("}")
        return Array(w.bytes)
    }

    /// The reading in a payload; `receivedAt` is the view's clock, `scanner` the topic's.
    public static func reading(json payload: [UInt8], scanner: String, receivedAt: Double) throws(VenueMessageError) -> ScannerReading {
        try readingAndKind(json: payload, scanner: scanner, receivedAt: receivedAt).reading
    }

    /// The reading and its beacon's `kind` as written (nil when absent), which its id must name
    /// (`VenueBeaconKey.Cache.beacontopKey`).
    static func readingAndKind(
        json payload: [UInt8], scanner: String, receivedAt: Double
    ) throws(VenueMessageError) -> (reading: ScannerReading, kind: String?) {
        let document = try JSONValue.document(payload, limit: maximumPayload)
        guard let beacon = document["beacon"], case .object = beacon else { throw .wrongShape("missing \"beacon\" object") }
        guard let id = beacon["id"]?.string, !id.isEmpty else { throw .wrongShape("missing \"beacon.id\"") }
        guard let rssi = beacon["filteredRssi"]?.number ?? beacon["rssi"]?.number else { throw .wrongShape("missing \"beacon.rssi\"") }
        let accuracy = beacon["accuracy"]?.number
        let reading = ScannerReading(
            scanner: scanner, beacon: id, time: receivedAt, sentAt: document["t"]?.number, rssi: rssi,
            measuredPower: beacon["measuredPower"]?.number, distance: accuracy.flatMap { $0 >= 0 ? $0 : nil }, format: .beacontop
        )
        return (reading, beacon["kind"]?.string)
    }
}
