import NDJSON
import Ranging

/// A visit event, published with QoS 1 on `beacontop/events/<kind>/<room>`:
///
/// ```json
/// {"type":"enter","beacon":"E2C5…:100:1","room":"booth-12","t":1767225600.0,"decided":1767225603.0}
/// {"type":"exit","beacon":"E2C5…:100:1","room":"booth-12","t":1767225690.5,"decided":1767225695.0}
/// {"type":"visit","beacon":"E2C5…:100:1","room":"booth-12","start":1767225600.0,"end":1767225690.5,"dwell":90.5,"decided":1767225695.0}
/// ```
///
/// Every exit is followed by the completed visit, so a backend that wants dwell time reads
/// `visit` alone and one that shows who is where reads `enter`/`exit`. Times are the venue view's
/// clock (Unix seconds): an enter's `t` and a visit's `start` the first reading the entry rests
/// on, an exit's `t` and a visit's `end` the room's last reading; `decided` is when presence
/// decided, which is when the event went out (docs/venue.md "Visit times").
public struct VisitEvent: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case enter, exit, visit
    }

    public var kind: Kind
    public var beacon: String
    public var room: String
    /// Enter: when it started; exit and visit: when it ended.
    public var time: Double
    /// Visit only.
    public var start: Double?
    /// When presence decided it (nil in events from before the field existed).
    public var decided: Double?

    public init(kind: Kind, beacon: String, room: String, time: Double, start: Double? = nil, decided: Double? = nil) {
        self.kind = kind
        self.beacon = beacon
        self.room = room
        self.time = time
        self.start = start
        self.decided = decided
    }

    public var dwell: Double? { start.map { time - $0 } }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"type\":")
        w.string(kind.rawValue)
        w.raw(",\"beacon\":")
        w.string(beacon)
        w.raw(",\"room\":")
        w.string(room)
        if let start, let dwell {
            w.raw(",\"start\":")
            w.number(start, decimals: 3, keepPoint: true)
            w.raw(",\"end\":")
            w.number(time, decimals: 3, keepPoint: true)
            w.raw(",\"dwell\":")
            w.number(dwell, decimals: 3)
        } else {
            w.raw(",\"t\":")
            w.number(time, decimals: 3, keepPoint: true)
        }
        if let decided {
            w.raw(",\"decided\":")
            w.number(decided, decimals: 3, keepPoint: true)
        }
        w.raw("}")
        return Array(w.bytes)
    }

    public init(json payload: [UInt8]) throws(VenueMessageError) {
        let document = try JSONValue.document(payload, limit: 4096)
        guard let kind = document["type"]?.string.flatMap(Kind.init(rawValue:)) else { throw .wrongShape("\"type\" is not enter, exit or visit") }
        guard let beacon = document["beacon"]?.string, let room = document["room"]?.string else { throw .wrongShape("missing \"beacon\" or \"room\"") }
        if kind == .visit {
            guard let start = document["start"]?.number, let end = document["end"]?.number else { throw .wrongShape("visit without \"start\" and \"end\"") }
            self.init(kind: kind, beacon: beacon, room: room, time: end, start: start, decided: document["decided"]?.number)
        } else {
            guard let time = document["t"]?.number else { throw .wrongShape("missing \"t\"") }
            self.init(kind: kind, beacon: beacon, room: room, time: time, decided: document["decided"]?.number)
        }
    }
}

/// Who is in a room, retained on `beacontop/occupancy/<room>` so a dashboard that connects later
/// reads the current state at once:
///
/// ```json
/// {"room":"booth-12","count":2,"beacons":["E2C5…:100:1","E2C5…:100:7"],"t":1767225690.5}
/// ```
public struct RoomOccupancy: Sendable, Equatable {
    public var room: String
    /// Sorted.
    public var beacons: [String]
    public var time: Double

    public init(room: String, beacons: [String], time: Double) {
        self.room = room
        self.beacons = beacons
        self.time = time
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"room\":")
        w.string(room)
        w.raw(",\"count\":")
        w.integer(beacons.count)
        w.raw(",\"beacons\":[")
        for (index, beacon) in beacons.enumerated() {
            if index > 0 { w.raw(",") }
            w.string(beacon)
        }
        w.raw("],\"t\":")
        w.number(time, decimals: 3, keepPoint: true)
        w.raw("}")
        return Array(w.bytes)
    }
}
