/// Why a survey file could not be loaded or written: the line (1-based, when known), the field
/// path (`readings[2].median`) when one is at fault, and what is wrong. Loading never changes the
/// file, so whatever was saved is still there to fix by hand.
public struct SurveyFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String?
    public var line: Int?
    public var field: String?
    public var reason: String

    public init(path: String? = nil, line: Int? = nil, field: String? = nil, reason: String) {
        self.path = path
        self.line = line
        self.field = field
        self.reason = reason
    }

    public var description: String {
        var text = path.map { "survey \($0)" } ?? "survey"
        if let line { text += " line \(line)" }
        if let field { text += ", \(field)" }
        return text + ": " + reason
    }
}
