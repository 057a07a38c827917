import NDJSON

/// Writes a `RangingSnapshot` as one NDJSON line (docs/formats.md "NDJSON tick lines"): a pure function of
/// the snapshot, JSON written by hand for speed.
///
/// Required fields (issue schema): `t`, `beacons[]` with `id`, `kind`, `rssi`, `filteredRssi`,
/// `accuracy`, `accuracyRange`, `proximity`, `measuredPower`, `packets`; `nearest`; `events[]` with
/// `type` and `region`. Extra fields: per beacon `rangeProbability` (the probability the range is
/// stated with, after `accuracyRange`), `address`, `measuredPowerSource`,
/// `frameMeasuredPower` (when the frame's value was not used), `pathLossExponent`,
/// `packetsPerSecond`, `interval`, `lastSeen`, `stale`, `exhibit` (name, when in the catalog);
/// per event `t`.
public enum TickLineEncoder {
    /// The line, without the trailing newline.
    public static func line(_ snapshot: RangingSnapshot) -> String {
        var writer = JSONWriter()
        append(snapshot, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Appends the line and a newline to `writer` (reuse one writer to avoid allocating per tick).
    public static func appendLine(_ snapshot: RangingSnapshot, to writer: inout JSONWriter) {
        append(snapshot, to: &writer)
        writer.byte(0x0A)
    }

    public static func append(_ snapshot: RangingSnapshot, to w: inout JSONWriter) {
        append(snapshot, extras: nil, to: &w)
    }

    /// The line with fields another consumer adds (beacon health, `--health`): its fields close
    /// each beacon object, its events follow the region events.
    public static func appendLine(_ snapshot: RangingSnapshot, extras: any TickLineExtras, to writer: inout JSONWriter) {
        append(snapshot, extras: extras, to: &writer)
        writer.byte(0x0A)
    }

    static func append(_ snapshot: RangingSnapshot, extras: (any TickLineExtras)?, to w: inout JSONWriter) {
        w.raw("{\"t\":")
        w.number(snapshot.time, decimals: 6, keepPoint: true)
        w.raw(",\"beacons\":[")
        for (position, beacon) in snapshot.beacons.enumerated() {
            w.withCursor(reserving: reservation(beacon)) { cursor in
                if position > 0 { cursor.byte(UInt8(ascii: ",")) }
                appendBeacon(beacon, to: &cursor)
            }
            extras?.appendFields(of: beacon, to: &w)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("],\"nearest\":")
        if let nearest = snapshot.nearestReading { w.string(nearest.id) } else if let nearest = snapshot.nearest { w.string(nearest.description) } else { w.null() }
        w.raw(",\"events\":[")
        for (position, event) in snapshot.events.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"type\":")
            w.string(event.kind.rawValue)
            w.raw(",\"region\":")
            w.string(event.region.identifier)
            w.raw(",\"t\":")
            w.number(event.time, decimals: 6, keepPoint: true)
            w.byte(UInt8(ascii: "}"))
        }
        extras?.appendEvents(to: &w, afterOthers: !snapshot.events.isEmpty)
        w.raw("]}")
    }

    /// One reservation per beacon: its fixed text and numbers, and its strings escaped at worst.
    static func reservation(_ b: BeaconReading) -> Int {
        1024 + 6 * (b.id.utf8.count + b.addressText.utf8.count + (b.exhibit?.name.utf8.count ?? 0))
    }

    static func appendBeacon(_ b: BeaconReading, to w: inout JSONCursor) {
        w.raw("{\"id\":")
        w.string(b.id)
        w.raw(",\"kind\":")
        w.string(b.kind.rawValue)
        w.raw(",\"address\":")
        w.string(b.addressText)
        w.raw(",\"rssi\":")
        w.integer(b.rssi)
        w.raw(",\"filteredRssi\":")
        if let filtered = b.filteredRSSI { w.number(filtered, decimals: 1) } else { w.null() }
        w.raw(",\"accuracy\":")
        if b.accuracy < 0 { w.raw("-1") } else { w.number(b.accuracy, decimals: 2) }
        w.raw(",\"accuracyRange\":")
        if let range = b.accuracyRange {
            w.byte(UInt8(ascii: "["))
            w.number(range.lowerBound, decimals: 2)
            w.byte(UInt8(ascii: ","))
            w.number(range.upperBound, decimals: 2)
            w.byte(UInt8(ascii: "]"))
        } else {
            w.null()
        }
        w.raw(",\"rangeProbability\":")
        w.number(b.rangeProbability, decimals: 2)
        w.raw(",\"proximity\":")
        w.string(b.proximity.rawValue)
        w.raw(",\"measuredPower\":")
        w.number(b.measuredPower.dBm, decimals: 1)
        w.raw(",\"measuredPowerSource\":")
        w.string(b.measuredPower.source.rawValue)
        if let frame = b.measuredPower.frameValue, b.measuredPower.source != .frame {
            w.raw(",\"frameMeasuredPower\":")
            w.integer(frame)
        }
        w.raw(",\"pathLossExponent\":")
        w.number(b.pathLossExponent, decimals: 2)
        w.raw(",\"packets\":")
        w.integer(b.packets)
        w.raw(",\"packetsPerSecond\":")
        w.number(b.packetsPerSecond, decimals: 1)
        w.raw(",\"interval\":")
        if let interval = b.advertisingInterval { w.number(interval, decimals: 3) } else { w.null() }
        w.raw(",\"lastSeen\":")
        w.number(b.lastSeen, decimals: 6, keepPoint: true)
        w.raw(",\"stale\":")
        if b.isStale { w.raw("true") } else { w.raw("false") }
        if let exhibit = b.exhibit {
            w.raw(",\"exhibit\":")
            w.string(exhibit.name)
        }
    }
}

/// Fields and events a consumer beside ranging adds to the tick lines (beacon health and
/// duplicates, `--health`), written by that consumer's module into the one line format.
public protocol TickLineExtras {
    /// Writes `,"name":value` pairs that end `beacon`'s object.
    func appendFields(of beacon: BeaconReading, to writer: inout JSONWriter)
    /// Writes event objects into the `events` array, each preceded by a comma when `afterOthers`
    /// or after the first.
    func appendEvents(to writer: inout JSONWriter, afterOthers: Bool)
}
