/// Why an exhibit catalog could not be loaded: the line (1-based, when known), the field path
/// (`exhibits[2].measuredPower`) and what is wrong, so the file can be fixed by hand.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int?
    public var field: String
    public var reason: String

    public init(line: Int?, field: String, reason: String) {
        self.line = line
        self.field = field
        self.reason = reason
    }

    public var description: String {
        if let line { return "catalog line \(line), \(field): \(reason)" }
        return "catalog \(field): \(reason)"
    }
}
