/// Why some bytes could not be decoded: which field, at which byte offset of the buffer given to
/// the decoder, and what was wrong. Decoders throw this instead of returning a bare nil so a
/// malformed packet can be counted and reported where it is.
public struct DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var offset: Int
    public var reason: String

    public init(field: String, offset: Int, reason: String) {
        self.field = field
        self.offset = offset
        self.reason = reason
    }

    public var description: String { "\(field) at byte \(offset): \(reason)" }
}
