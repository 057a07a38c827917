import NDJSON
import Ranging

/// A beacontop agent's periodic health report on `beacontop/scanners/<scanner>/telemetry`
/// (every 10 s by default):
///
/// ```json
/// {"scanner":"pi-hall-a","t":1767225600.0,"uptime":3600.0,"advertsPerSecond":412.5,"beacons":37,
///  "published":128004,"buffered":0,"dropped":12,"droppedQoS1":0,"droppedStale":0,"radio":"ok"}
/// ```
///
/// `radio` is `"ok"`, or `"lost"` with `"radioReason"` while the agent's controller is gone (or
/// refused to scan again after coming back): the agent is online, hearing nothing. Absent from
/// older agents' telemetry (nil: not said).
///
/// `dropped` counts messages the outgoing buffer let go while the broker was away (full),
/// `droppedStale` readings that expired waiting for it (absent from older agents' telemetry: 0).
public struct ScannerTelemetry: Sendable, Equatable {
    public var scanner: String
    public var time: Double
    public var uptime: Double
    public var advertsPerSecond: Double
    public var beacons: Int
    public var published: Int
    public var buffered: Int
    public var dropped: Int
    public var droppedQoS1: Int
    public var droppedStale = 0
    public var radio: RadioState?

    /// The agent's radio: scanning, or lost (the reason, as the source said it).
    public enum RadioState: Sendable, Equatable {
        case ok
        case lost(reason: String)
    }

    public static let defaultInterval = 10.0

    public init(scanner: String, time: Double, uptime: Double, advertsPerSecond: Double, beacons: Int, published: Int, buffered: Int, dropped: Int, droppedQoS1: Int) {
        self.scanner = scanner
        self.time = time
        self.uptime = uptime
        self.advertsPerSecond = advertsPerSecond
        self.beacons = beacons
        self.published = published
        self.buffered = buffered
        self.dropped = dropped
        self.droppedQoS1 = droppedQoS1
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{\"scanner\":")
        w.string(scanner)
        w.raw(",\"t\":")
        w.number(time, decimals: 6, keepPoint: true)
        w.raw(",\"uptime\":")
        w.number(uptime, decimals: 1, keepPoint: true)
        w.raw(",\"advertsPerSecond\":")
        w.number(advertsPerSecond, decimals: 1)
        for (key, value) in [(",\"beacons\":" as StaticString, beacons), (",\"published\":", published), (",\"buffered\":", buffered), (",\"dropped\":", dropped), (",\"droppedQoS1\":", droppedQoS1), (",\"droppedStale\":", droppedStale)] {
            w.raw(key)
            w.integer(value)
        }
        switch radio {
        case .ok?: w.raw(",\"radio\":\"ok\"")
        case .lost(let reason)?:
            w.raw(",\"radio\":\"lost\",\"radioReason\":")
            w.string(reason)
        case nil: break
        }
        w.raw("}")
        return Array(w.bytes)
    }

    public init(json payload: [UInt8], scanner: String) throws(VenueMessageError) {
        let document = try JSONValue.document(payload, limit: 4096)
        func number(_ key: String) throws(VenueMessageError) -> Double {
            guard let value = document[key]?.number else { throw .wrongShape("telemetry without a numeric \"\(key)\"") }
            return value
        }
        func count(_ key: String) throws(VenueMessageError) -> Int {
            guard let value = Int(exactly: try number(key)) else { throw .wrongShape("telemetry \"\(key)\" is not a whole number") }
            return value
        }
        self.init(
            scanner: scanner, time: try number("t"), uptime: try number("uptime"), advertsPerSecond: try number("advertsPerSecond"),
            beacons: try count("beacons"), published: try count("published"), buffered: try count("buffered"),
            dropped: try count("dropped"), droppedQoS1: try count("droppedQoS1")
        )
        if document["droppedStale"] != nil { droppedStale = try count("droppedStale") }
        switch document["radio"] {
        case nil: break
        case .string("ok")?: radio = .ok
        case .string("lost")?:
            // Shown in the view's event log: a reason is held to a name's rules (no control characters).
            guard let reason = document["radioReason"]?.string else { throw .wrongShape("telemetry \"radio\" lost without a \"radioReason\"") }
            radio = .lost(reason: try VenueMessageDecoder.name(reason))
        default: throw .wrongShape("telemetry \"radio\" is neither \"ok\" nor \"lost\"")
        }
    }
}

extension ScannerTelemetry.RadioState {
    /// The reason while lost; nil when ok.
    public var lostReason: String? {
        if case .lost(let reason) = self { reason } else { nil }
    }
}
