/// The line a reader scrolled back in the event log is at, by what it shows: the event and which
/// of its wrapped lines. A line number alone names another line once the log is wrapped to a new
/// width (a resize) or its oldest events are dropped (past `MonitorFeed.eventLimit`), so the text
/// the reader was at jumped away; `less` keeps it in view, and so does the log.
public struct EventLogAnchor: Sendable, Equatable {
    public var event: MonitorEvent
    /// Where the event was in the log: where to look for it first.
    public var index: Int
    /// Which of the event's wrapped lines.
    public var line: Int

    public init(event: MonitorEvent, index: Int, line: Int) {
        self.event = event
        self.index = index
        self.line = line
    }

    /// The anchored event's index in `events`: at its old index, else the nearest equal one (an
    /// event dropped from the front, or one inserted before it, moved it); nil when it is gone.
    public func index(in events: [MonitorEvent]) -> Int? {
        if events.indices.contains(index), events[index] == event { return index }
        return events.indices.filter { events[$0] == event }.min { abs($0 - index) < abs($1 - index) }
    }
}
