/// The eight ANSI colours (their curses numbers), or a 256-colour palette index.
public enum TerminalColor: Equatable, Sendable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case indexed(UInt8)

    /// The number curses' `init_pair` takes.
    public var number: Int16 {
        switch self {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        case .indexed(let n): Int16(n)
        }
    }
}

/// How a role looks: colours (nil: the terminal's default) and attributes.
public struct Style: Equatable, Sendable {
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1)
        public static let dim = Attributes(rawValue: 2)
        public static let reverse = Attributes(rawValue: 4)
        public static let underline = Attributes(rawValue: 8)
    }

    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var attributes: Attributes

    public init(_ foreground: TerminalColor? = nil, on background: TerminalColor? = nil, _ attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }
}

/// What the terminal can colour: nothing (NO_COLOR set, or a monochrome terminal), the eight ANSI
/// colours, or a 256-colour palette.
public enum ColorDepth: Sendable, Equatable {
    case monochrome, eight, extended

    /// Follows https://no-color.org: any non-empty NO_COLOR disables colour whatever the terminal can do.
    public init(colors: Int, noColorVariable: String?) {
        if let value = noColorVariable, !value.isEmpty {
            self = .monochrome
        } else if colors >= 256 {
            self = .extended
        } else if colors >= 8 {
            self = .eight
        } else {
            self = .monochrome
        }
    }
}

/// The one table from roles to looks, one column per colour depth. Monochrome relies on attributes
/// alone, so every role a user must tell apart (selected, nearest, stale, warnings) stays distinct.
public enum StyleTable {
    public static func style(for role: StyleRole, depth: ColorDepth) -> Style {
        let entry = table(role)
        switch depth {
        case .extended: return entry.extended
        case .eight: return entry.eight
        case .monochrome: return entry.monochrome
        }
    }

    private static func table(_ role: StyleRole) -> (extended: Style, eight: Style, monochrome: Style) {
        switch role {
        case .plain: (Style(), Style(), Style())
        case .header: (Style(.white, on: .indexed(24), .bold), Style(.white, on: .blue, .bold), Style(nil, on: nil, [.reverse, .bold]))
        case .columnHeader: (Style(.indexed(81), .bold), Style(.cyan, .bold), Style(nil, on: nil, [.bold, .underline]))
        case .selected: (Style(.black, on: .indexed(117)), Style(.black, on: .cyan), Style(nil, on: nil, .reverse))
        case .nearest: (Style(.indexed(214), .bold), Style(.yellow, .bold), Style(nil, on: nil, .bold))
        case .stale: (Style(.indexed(242)), Style(.white, .dim), Style(nil, on: nil, .dim))
        case .immediate: (Style(.indexed(46), .bold), Style(.green, .bold), Style(nil, on: nil, .bold))
        case .near: (Style(.indexed(148)), Style(.green), Style())
        case .far: (Style(.indexed(208)), Style(.yellow), Style())
        case .unknown: (Style(.indexed(244)), Style(.white, .dim), Style(nil, on: nil, .dim))
        case .warning: (Style(.indexed(196), .bold), Style(.red, .bold), Style(nil, on: nil, [.bold, .underline]))
        case .finding: (Style(.indexed(201), .bold), Style(.magenta, .bold), Style(nil, on: nil, .bold))
        case .status: (Style(.black, on: .indexed(250)), Style(.black, on: .white), Style(nil, on: nil, .reverse))
        case .statusWarning: (Style(.indexed(160), on: .indexed(250), .bold), Style(.red, on: .white, .bold), Style(nil, on: nil, [.reverse, .bold]))
        case .recording: (Style(.white, on: .indexed(160), .bold), Style(.white, on: .red, .bold), Style(nil, on: nil, [.reverse, .bold, .underline]))
        case .chart: (Style(.indexed(39)), Style(.cyan), Style())
        case .muted: (Style(.indexed(245)), Style(nil, on: nil, .dim), Style(nil, on: nil, .dim))
        }
    }
}
