import Foundation
import NDJSON
import Ranging

/// One message on `espresense/devices/<id>/<room>`, field for field as ESPresense's firmware fills
/// it (`BleFingerprint::fill`): what a beacontop agent publishes per beacon so Home Assistant's
/// `mqtt_room` and ESPresense Companion take it as one more node, and what a venue view reads from
/// ESP32 nodes.
///
/// ```json
/// {"mac":"c3d4e5f60718","id":"iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1","name":"Lobby",
///  "rssi@1m":-59,"rssi":-71.5,"raw":4.12,"distance":3.98,"var":0.64,"int":102}
/// ```
///
/// - `mac`: the sender's address, 12 lower-case hex digits, most significant first, no colons
/// - `rssi@1m`: the beacon's power at 1 m (dBm, integer); `rssi`: its filtered RSSI (dBm)
/// - `raw`: distance from the last unfiltered RSSI (m); `distance`: filtered distance (m);
///   `var`: the distance's variance (m²); `int`: mean interval between packets (ms)
/// - `name`: the catalog name, when the beacon has one
///
/// Newer firmware also sends `rxAdj`, `rssiVar` and `close`, older `speed` and `interval`; the
/// decoder keeps `rssiVar`, `interval` (as `int`) and ignores the rest, as consumers do.
public struct ESPresenseDeviceMessage: Sendable, Equatable {
    public var id: String
    public var mac: String?
    public var name: String?
    public var rssiAt1m: Double?
    public var rssi: Double?
    public var raw: Double?
    public var distance: Double?
    public var variance: Double?
    public var interval: Int?
    public var rssiVariance: Double?

    /// Payloads past this are refused unread: ESPresense's own document is 512 bytes at most.
    public static let maximumPayload = 4096

    public init(
        id: String, mac: String? = nil, name: String? = nil, rssiAt1m: Double? = nil, rssi: Double? = nil, raw: Double? = nil,
        distance: Double? = nil, variance: Double? = nil, interval: Int? = nil, rssiVariance: Double? = nil
    ) {
        self.id = id
        self.mac = mac
        self.name = name
        self.rssiAt1m = rssiAt1m
        self.rssi = rssi
        self.raw = raw
        self.distance = distance
        self.variance = variance
        self.interval = interval
        self.rssiVariance = rssiVariance
    }

    /// The message for one ranged beacon; nil for beacons ESPresense has no id form for, and for
    /// stale readings (ESPresense reports only what it hears).
    public init?(reading: BeaconReading) {
        guard !reading.isStale, let id = ESPresenseID.string(for: reading.identity) else { return nil }
        let power = reading.measuredPower.dBm
        let exponent = reading.pathLossExponent
        self.init(
            id: id,
            mac: ESPresenseDeviceMessage.mac(reading.address.rawValue),
            name: reading.exhibit?.name,
            rssiAt1m: power.rounded(),
            rssi: reading.filteredRSSI ?? Double(reading.rssi),
            raw: pow(10, (power - Double(reading.rssi)) / (10 * exponent)),
            distance: reading.accuracy >= 0 ? reading.accuracy : nil,
            variance: reading.accuracyRange.map { range in
                let half = (range.upperBound - range.lowerBound) / 2
                return half * half
            },
            interval: reading.advertisingInterval.map { Int(($0 * 1000).rounded()) }
        )
    }

    public func json() -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        w.raw("{")
        if let mac {
            w.raw("\"mac\":")
            w.string(mac)
            w.raw(",")
        }
        w.raw("\"id\":")
        w.string(id)
        if let name {
            w.raw(",\"name\":")
            w.string(name)
        }
        if let rssiAt1m {
            w.raw(",\"rssi@1m\":")
            w.number(rssiAt1m, decimals: 0)
        }
        for (key, value) in [(",\"rssi\":" as StaticString, rssi), (",\"raw\":", raw), (",\"distance\":", distance), (",\"var\":", variance), (",\"rssiVar\":", rssiVariance)] {
            guard let value else { continue }
            w.raw(key)
            w.number(value, decimals: 2)
        }
        if let interval {
            w.raw(",\"int\":")
            w.integer(interval)
        }
        w.raw("}")
        return Array(w.bytes)
    }

    public init(json payload: [UInt8]) throws(VenueMessageError) {
        if payload.count <= Self.maximumPayload, let flat = JSONFlatObject(payload, keys: Self.keys), let message = Self(flat) {
            self = message
            return
        }
        try self.init(document: payload)
    }

    /// The message read through a whole JSON document: what the flat fast path must agree with,
    /// and what names what is wrong with a payload.
    init(document payload: [UInt8]) throws(VenueMessageError) {
        let document = try JSONValue.document(payload, limit: Self.maximumPayload)
        guard case .object = document else { throw .wrongShape("an ESPresense message must be a JSON object") }
        guard let id = document["id"]?.string, !id.isEmpty else { throw .wrongShape("missing \"id\"") }
        func number(_ key: String) throws(VenueMessageError) -> Double? {
            guard let value = document[key], value != .null else { return nil }
            guard let number = value.number else { throw .wrongShape("\"\(key)\" is not a number") }
            return number
        }
        let newInterval = try number("int")
        let oldInterval = try number("interval")
        self.init(
            id: id, mac: document["mac"]?.string, name: document["name"]?.string, rssiAt1m: try number("rssi@1m"),
            rssi: try number("rssi"), raw: try number("raw"), distance: try number("distance"), variance: try number("var"),
            interval: Self.interval(newInterval ?? oldInterval),
            rssiVariance: try number("rssiVar")
        )
        guard rssi != nil || distance != nil else { throw .wrongShape("neither \"rssi\" nor \"distance\"") }
    }

    /// The members read, in `JSONFlatObject`'s order.
    private static let keys: [StaticString] = ["id", "mac", "name", "rssi@1m", "rssi", "raw", "distance", "var", "int", "interval", "rssiVar"]

    /// The message in a flat object, exactly as the document path below reads it; nil for
    /// anything that path refuses (it then says why).
    private init?(_ flat: JSONFlatObject) {
        guard let id = flat.string(0), !id.isEmpty else { return nil }
        for index in 3..<11 {
            switch flat[index] {
            case nil, .null?, .number?: continue
            default: return nil
            }
        }
        func number(_ index: Int) -> Double? { flat.number(index) }
        self.init(
            id: id, mac: flat.string(1), name: flat.string(2), rssiAt1m: number(3), rssi: number(4), raw: number(5),
            distance: number(6), variance: number(7), interval: Self.interval(number(8) ?? number(9)), rssiVariance: number(10)
        )
        guard rssi != nil || distance != nil else { return nil }
    }

    private static func interval(_ milliseconds: Double?) -> Int? {
        milliseconds.flatMap { Int(exactly: $0.rounded()) }
    }

    static func mac(_ raw: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        for shift in stride(from: 44, through: 0, by: -4) {
            utf8.append(digits[Int((raw >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
