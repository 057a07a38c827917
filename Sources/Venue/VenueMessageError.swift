/// Why a message from the broker was not used. The venue view counts these per kind and shows
/// the count; the payload itself never reaches a terminal.
public enum VenueMessageError: Error, Sendable, Equatable, CustomStringConvertible {
    case oversized(Int)
    case malformedJSON(String)
    case wrongShape(String)
    /// A topic under a venue root that names nothing beacontop knows.
    case unknownTopic

    public var description: String {
        switch self {
        case .oversized(let bytes): "payload of \(bytes) bytes is over the limit"
        case .malformedJSON(let detail): "malformed JSON (\(detail))"
        case .wrongShape(let detail): "unexpected message: \(detail)"
        case .unknownTopic: "unknown topic"
        }
    }
}
