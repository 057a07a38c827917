import BeaconFormats
import Ranging
import Survey

/// The `survey` screen's app state: the survey taken so far, the cursor where the technician stands,
/// and the sample being taken. Pure like `MonitorState`: keys and sightings in (time as data),
/// finished samples out for the loop to save. Owned by the survey's one loop.
public struct SurveyState: Sendable {
    /// Said when an arrow or a click would move the cursor while sampling.
    static let spotFixed = "the spot is fixed until the sample ends (Esc cancels)"
    /// Metres one arrow press moves the cursor.
    public static let step = 0.5
    /// Seconds a sample lasts unless `--sample` says otherwise.
    public static let defaultSampleSeconds = 5.0

    public private(set) var session: SurveySession
    public private(set) var cursor: FloorPosition
    public let sampleSeconds: Double
    public let catalog: ExhibitCatalog?
    public let ranging: RangingConfiguration
    /// The sample being taken, nil between samples.
    public private(set) var collector: SampleCollector?
    /// Where a sample asked for before the source delivered (Enter before the first beacon was
    /// heard, or while the source is lost) will be taken: it starts with the next sighting, as the
    /// info line promises, rather than the Enter being dropped. Nil when none is waiting.
    public private(set) var waitingSpot: FloorPosition?
    /// The last thing worth saying on the info line (a sample saved, cancelled, a write error).
    public private(set) var message: String?
    /// The newest capture time seen.
    public private(set) var time: Double?
    /// True from a loss of the source until it is connected again: no sample starts meanwhile.
    public private(set) var sourceLost = false
    /// True once the source has ended for good (a replay's end): no sample starts, as the clock
    /// would run on without packets and save the spot as one with no coverage.
    public private(set) var sourceEnded = false
    /// A sample was under way when the source was lost (said again when it is back).
    private var sampleCutByLoss = false
    /// True while `h` (or `?`) shows every mark and key in place of the plan: a narrow screen's
    /// legend line holds only some of the marks, and at 40x12 only one.
    public private(set) var showsHelp = false
    /// Lines that page is scrolled down by, kept within `helpScrollLimit`.
    public private(set) var helpScroll = 0
    /// How far the page drawn last can scroll: the loop sets it from each frame
    /// (`ScreenBuffer.scrollLimit`), as the monitor's.
    public var helpScrollLimit = 0 {
        didSet { helpScroll = min(helpScroll, max(0, helpScrollLimit)) }
    }
    /// The page scrolled down: what the line at its top showed in the frame drawn last, kept there
    /// when a resize wraps the page anew (`ScrollAnchor`, as the monitor's screens); nil at its top.
    public private(set) var helpAnchor: ScrollAnchor?
    /// Terminal lines, for a page of the help page.
    public var screenLines = 24

    /// What a key asks of the loop.
    public enum Outcome: Equatable, Sendable {
        case none, redraw, quit
    }

    public init(session: SurveySession, catalog: ExhibitCatalog?, sampleSeconds: Double = Self.defaultSampleSeconds,
                ranging: RangingConfiguration = RangingConfiguration()) {
        self.session = session
        self.catalog = catalog
        self.sampleSeconds = sampleSeconds
        self.ranging = ranging
        // Start where the last sample was taken (resuming), else at the first placed beacon.
        cursor = session.samples.last?.spot ?? session.plan.beacons.lazy.compactMap(\.position).first ?? FloorPosition(x: 0, y: 0)
    }

    /// Handles a key: arrows move, Enter or space samples, Esc cancels the sample, `h` or `?` shows
    /// every mark and key, q quits.
    public mutating func handle(_ key: Key) -> Outcome {
        if showsHelp { return handleHelp(key) }
        switch key {
        case .character("h"), .character("?"):
            showsHelp = true
            helpScroll = 0
            helpAnchor = nil
        case .character("q"): return .quit
        case .up: move(dx: 0, dy: Self.step)
        case .down: move(dx: 0, dy: -Self.step)
        case .left: move(dx: -Self.step, dy: 0)
        case .right: move(dx: Self.step, dy: 0)
        case .enter, .character(" "):
            guard collector == nil, waitingSpot == nil else { return .none }
            guard !sourceEnded else {
                message = "the source has ended: nothing more to sample (q quits)"
                return .redraw
            }
            guard !sourceLost, let time else {
                waitingSpot = cursor
                message = sourceLost
                    ? "the source is lost: the sample starts once it is back (Esc cancels)"
                    : "no beacon heard yet: the sample starts with the first (Esc cancels)"
                return .redraw
            }
            collector = SampleCollector(spot: cursor, start: time, catalog: catalog, ranging: ranging)
            message = nil
        case .escape:
            guard collector != nil || waitingSpot != nil else { return .none }
            collector = nil
            waitingSpot = nil
            message = "sample cancelled"
        case .resize: return .redraw
        default: return .none
        }
        return .redraw
    }

    /// The help page's keys: `h`, `?` and Esc close it, q quits, the arrows, `j`/`k`, `PgUp`,
    /// `PgDn`, `Home` and `End` scroll it as `less` does. A sample under way goes on meanwhile.
    private mutating func handleHelp(_ key: Key) -> Outcome {
        let page = max(1, screenLines - 4)
        let target: Int
        switch key {
        case .character("q"): return .quit
        case .character("h"), .character("?"), .escape:
            showsHelp = false
            return .redraw
        case .resize: return .redraw
        case .up, .character("k"): target = helpScroll - 1
        case .down, .character("j"): target = helpScroll + 1
        case .pageUp: target = helpScroll - page
        case .pageDown: target = helpScroll + page
        case .home: target = 0
        case .end: target = helpScrollLimit
        default: return .none
        }
        let clamped = min(max(0, target), max(0, helpScrollLimit))
        guard clamped != helpScroll else { return .none }
        helpScroll = clamped
        // The keys move by lines of this width: the next frame anchors the line they reach.
        helpAnchor = nil
        return .redraw
    }

    /// What the frame drawn last showed, handed over by the loop: how far the help page scrolls,
    /// the line at its top and what that line shows. A page wrapped anew after a resize was drawn
    /// from its anchor, so its top line moved: the keys then count from where it is.
    public mutating func drawn(scrollLimit: Int, top: Int, anchor: ScrollAnchor?) {
        helpScrollLimit = scrollLimit
        guard showsHelp else { return }
        helpScroll = min(max(0, top), max(0, scrollLimit))
        helpAnchor = anchor?.isTop == false ? anchor : nil
    }

    /// Puts the cursor at a spot (a mouse click on the plan). Not while sampling: the sample is
    /// taken where it started.
    public mutating func place(at spot: FloorPosition) -> Outcome {
        guard spot.x.isFinite, spot.y.isFinite, !showsHelp else { return .none }
        guard collector == nil, waitingSpot == nil else {
            message = Self.spotFixed
            return .redraw
        }
        cursor = FloorPosition(x: (spot.x / Self.step).rounded() * Self.step, y: (spot.y / Self.step).rounded() * Self.step)
        return .redraw
    }

    private mutating func move(dx: Double, dy: Double) {
        guard collector == nil, waitingSpot == nil else {
            message = Self.spotFixed
            return
        }
        cursor = FloorPosition(x: cursor.x + dx, y: cursor.y + dy)
    }

    /// One sighting (any source, the one decoder's output): counted in the sample being taken.
    public mutating func observe(_ sighting: BeaconSighting) {
        guard sighting.timestamp.isFinite else { return }
        time = max(time ?? sighting.timestamp, sighting.timestamp)
        if let spot = waitingSpot, !sourceLost, !sourceEnded, let time {
            collector = SampleCollector(spot: spot, start: time, catalog: catalog, ranging: ranging)
            waitingSpot = nil
            message = nil
        }
        guard collector != nil, sighting.isRangeable, let rssi = sighting.rssi else { return }
        collector!.add(Sighting(time: sighting.timestamp, frame: sighting.frame, address: sighting.address, rssi: Int(rssi)))
    }

    /// Moves the capture clock on to `time` (between packets the loop runs it on at the replay
    /// speed); returns the sample that ended by then, added to the session, for the loop to save.
    public mutating func advance(to now: Double) -> SurveySample? {
        if now.isFinite { time = max(time ?? now, now) }
        guard let collector, let time, time >= collector.start + sampleSeconds else { return nil }
        let sample = collector.finish(index: session.nextIndex, end: collector.start + sampleSeconds)
        session.add(sample)
        self.collector = nil
        let heard = sample.readings.count
        message = "sample \(sample.index) saved: \(heard) beacon\(heard == 1 ? "" : "s") heard"
        return session.samples.last
    }

    /// Seconds into the sample being taken.
    public var sampleElapsed: Double? {
        guard let collector, let time else { return nil }
        return min(sampleSeconds, max(0, time - collector.start))
    }

    /// Source news worth a line (a lost transport, a reconnect, a replay's end).
    public mutating func note(_ text: String) {
        message = text
    }

    /// The source was lost (`text` says how). A sample under way is dropped: the clock runs on
    /// without packets, so it was saved with its first seconds only, and a controller lost early in
    /// a sample saved the spot as one with no coverage.
    public mutating func lose(_ text: String) {
        sourceLost = true
        guard collector != nil else { return note(text) }
        collector = nil
        sampleCutByLoss = true
        message = "sample cancelled: \(text)"
    }

    /// The source has ended for good (`text` says how: a replay's end). A sample under way is
    /// dropped, as on a loss, unless the packets already heard reach its end (the loop saves it).
    public mutating func end(_ text: String) {
        sourceEnded = true
        if let collector, let time, time >= collector.start + sampleSeconds { return }
        if waitingSpot != nil {
            waitingSpot = nil
            message = "no sample: \(text); nothing more to sample (q quits)"
            return
        }
        guard collector != nil else { return note(text) }
        collector = nil
        message = "sample cancelled: \(text); nothing more to sample (q quits)"
    }

    /// The source is connected (at start, or back after a loss).
    public mutating func connected(_ source: String) {
        guard sourceLost else { return }
        sourceLost = false
        message = sampleCutByLoss
            ? "\(source) is back: the sample the loss cut off was not saved; take it again (Enter)"
            : "\(source) is back"
        sampleCutByLoss = false
    }

    /// The last sample's save failed (`reason`, e.g. a full disk): it is taken back, so the plan,
    /// the count and the closing line show only what the file holds, and the message says what to do.
    public mutating func saveFailed(_ reason: String) {
        let index = session.withdrawLast()?.index
        message = "not saved: " + (index.map { "sample \($0), " } ?? "") + reason + "; take it again once it can be written"
    }
}
