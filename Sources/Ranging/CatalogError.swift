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

/// A catalog file that cannot be opened, in the system's words as every other file:
/// `museum.yaml: No such file or directory`. Printed after `beacontop: ` as it is, with no
/// `catalog`/path prefix of the caller's (the path is in it).
public struct CatalogFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
