/// Why a message from the broker was not used. The venue view counts these per kind and shows
/// the count; the payload itself never reaches a terminal.
public enum VenueMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    case oversized(Int)
    case malformedJSON(String)
    case wrongShape(String)
    /// A topic under a venue root that names nothing beacontop knows.
    case unknownTopic
    /// A reading the broker kept retained: scanners publish readings without retain (agents and
    /// ESPresense nodes alike), so it is someone's test or junk, of any age.
    case retainedReading
    /// A reading whose id claims a beacon but names none (`VenueBeaconKey.reading`): an
    /// ESPresense `iBeacon:`/`altBeacon:`/`eddy:` id whose rest does not parse, or a beacontop
    /// reading whose `beacon.id` is no beacon of its `kind`. The detail says which.
    case malformedBeaconID(String)

    public var description: String {
        switch self {
        case .oversized(let bytes): "payload of \(bytes) bytes is over the limit"
        case .malformedJSON(let detail): "malformed JSON (\(detail))"
        case .wrongShape(let detail): "unexpected message: \(detail)"
        case .unknownTopic: "unknown topic"
        case .retainedReading: "a retained reading (scanners never retain readings: it is old)"
        case .malformedBeaconID(let detail): "malformed beacon id: \(detail)"
        }
    }
}

extension JSONValue {
    /// The JSON document in a message payload of at most `limit` bytes, with refusals as
    /// `VenueMessageError`s (counted by kind by the decoder).
    static func document(_ payload: [UInt8], limit: Int) throws(VenueMessageError) -> JSONValue {
        guard payload.count <= limit else { throw .oversized(payload.count) }
        do {
            return try JSONValue(parsing: payload)
        } catch {
            throw .malformedJSON(error.description)
        }
    }
}
