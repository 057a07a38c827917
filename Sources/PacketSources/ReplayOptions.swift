/// How fast a replay runs: a factor of real time (0.25 to 100) or as fast as it can be read.
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
    case factor(Double)
    case max

    public static let range: ClosedRange<Double> = 0.25...100

    /// `1`, `0.25`, `10x`, `max`.
    public init(parsing text: String) throws(SourceSpecError) {
        if text == "max" { self = .max; return }
        let number = text.hasSuffix("x") ? String(text.dropLast()) : text
        guard let value = Double(number), Self.range.contains(value) else {
            throw SourceSpecError(spec: text, part: "--speed", problem: "must be 0.25 to 100, or max")
        }
        self = .factor(value)
    }

    public var description: String {
        switch self {
        case .factor(let value): value == value.rounded() ? "\(Int(value))x" : "\(value)x"
        case .max: "max"
        }
    }
}

/// What part of a capture to replay and how.
public struct ReplayOptions: Sendable, Equatable {
    public var speed: ReplaySpeed
    /// Start over at the end (booth demos); timestamps keep increasing across loops.
    public var loop: Bool
    /// Seconds after the first packet at which to start (earlier packets are skipped, unpaced).
    public var from: Double?
    /// Seconds after the first packet at which to stop (or loop).
    public var to: Double?
    /// At the end, wait for a seek back instead of ending (the monitor: `←` after `replay
    /// finished` looks again at the last minute); the headless commands end there.
    public var holdAtEnd: Bool

    public init(speed: ReplaySpeed = .factor(1), loop: Bool = false, from: Double? = nil, to: Double? = nil, holdAtEnd: Bool = false) {
        self.speed = speed
        self.loop = loop
        self.from = from
        self.to = to
        self.holdAtEnd = holdAtEnd
    }

    /// What is wrong with a `--from`/`--to` window, or nil: each a finite number of seconds, at
    /// least 0, and `--to` after `--from`. NaN compared false everywhere and replayed the whole
    /// capture; `--to=-5` replayed nothing without a word.
    public static func windowProblem(from: Double?, to: Double?) -> String? {
        for (flag, value) in [("--from", from), ("--to", to)] {
            if let value, !(value.isFinite && value >= 0) { return "\(flag) must be a number of seconds, at least 0" }
        }
        if let from, let to, to <= from { return "--to must be after --from" }
        return nil
    }

    /// What is wrong with replay flags given for a source that is no file, or nil: a radio, a
    /// broker and a `sim:` walk have no position to start `--from` or stop `--to` at, and a radio
    /// or a broker no pace (`--speed`) and no end to start over at (`--loop`). `scan sim:CATALOG
    /// --from 10 --to 20` walked from the start for ever, and `scan hci0 --to 5` scanned on, the
    /// flags ignored without a word. `speedGiven` and `loop` say whether those flags were given.
    /// A broker is called one; a radio, a live source.
    public static func sourceProblem(from: Double?, to: Double?, speedGiven: Bool, loop: Bool, source: SourceSpec) -> String? {
        if case .file = source { return nil }
        if from != nil || to != nil {
            return "--from and --to pick part of a file; \(source) is no file"
        }
        if case .simulation = source { return nil }
        if speedGiven || loop {
            // A broker relays readings as they come, but it is no radio: "live source" sent people to check the adapter.
            var what = "a live source"
            if case .broker = source { what = "a broker" }
            return "\(speedGiven ? "--speed" : "--loop") is for a file or a sim: walk; \(source) is \(what)"
        }
        return nil
    }

    /// What is wrong with `speed` for `source`, or nil: a `sim:` walk has no end to run to at
    /// `max`. Asked with the other options, so it is a usage error (status 64) like them; it was
    /// found only when the source opened, status 1.
    public static func speedProblem(_ speed: ReplaySpeed, source: SourceSpec) -> String? {
        guard case .simulation = source, speed == .max else { return nil }
        return "--speed max: a sim: walk has no end to run to; give 0.25 to 100"
    }
}
