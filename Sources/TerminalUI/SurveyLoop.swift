import BeaconFormats
import CNcursesw
import Glibc
import Monitor
import PacketSources
import Survey

/// The `survey` command's owner loop, as `MonitorLoop` is the monitor's: it owns the terminal, the
/// survey state and the survey file, takes the source's batches from the inbox (decoded by the one
/// sighting decoder), runs the capture clock on between packets, saves each sample the moment it
/// ends (one line, one write) and draws. It returns on q, a signal, `requestStop` or the terminal's
/// hang-up, always after restoring the terminal (the same handlers as the monitor's).
public struct SurveyLoop {
    public let wakeup = MonitorWakeup()
    public private(set) var state: SurveyState
    private let inbox: SourceInbox
    private let file: LineFileAppender
    private let rule: CoverageRule
    /// Capture seconds per wall second between packets (the replay speed; 0 for `max`).
    private let rate: Double
    private let noColorVariable: String?
    private let now: () -> Double
    private var decoder = BeaconSightingDecoder()
    private var clock: (capture: Double, wall: Double)?

    public init(
        state: SurveyState, inbox: SourceInbox, file: LineFileAppender, rule: CoverageRule = CoverageRule(), rate: Double = 1,
        noColorVariable: String?, now: @escaping () -> Double = SourceInbox.wallClock
    ) {
        self.state = state
        self.inbox = inbox
        self.file = file
        self.rule = rule
        self.rate = rate
        self.noColorVariable = noColorVariable
        self.now = now
    }

    public mutating func run() throws -> MonitorExit {
        try CursesTerminal.owning(wakeup: wakeup, noColorVariable: noColorVariable) { try loop($0) }
    }

    private mutating func loop(_ terminal: CursesTerminal) throws -> MonitorExit {
        var dirty = true
        while true {
            // Ten times a second: the sample's progress shows, and a sample ends on time.
            var fds = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeup.pipe.readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: inbox.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
            _ = poll(&fds, 3, 100)
            wakeup.pipe.drain()
            let signal = cnc_pending_signal()
            if signal != 0 { return .signal(signal) }
            if wakeup.isStopRequested { return .stopped }
            if CursesTerminal.hungUp(fds[0]) { return .terminalClosed }

            while let key = terminal.readKey() {
                let outcome: SurveyState.Outcome
                if case .click(let row, let column) = key {
                    let size = terminal.size
                    let model = SurveyScreen.model(state, rule: rule)
                    outcome = SurveyPlanView.position(atColumn: column, row: row, model, area: SurveyScreen.planArea(state, size: size, rule: rule, charset: terminal.charset))
                        .map { state.place(at: $0) } ?? .none
                } else {
                    state.screenLines = terminal.size.lines
                    outcome = state.handle(key)
                }
                if outcome == .quit { return .quit }
                if key == .resize { terminal.invalidate() }
                if outcome == .redraw { dirty = true }
            }
            if drain() { dirty = true }
            if let sample = state.advance(to: captureTime()) {
                do { try file.write(SurveyLog.sampleLine(sample)) } catch { state.saveFailed(error.reason) }
                dirty = true
            }
            if state.collector != nil { dirty = true }
            if dirty {
                let frame = SurveyScreen.render(state, size: terminal.size, rule: rule, charset: terminal.charset)
                terminal.draw(frame)
                // How far the help page scrolls is known once it is wrapped to this width.
                state.drawn(frame)
                dirty = false
            }
        }
    }

    /// Feeds what arrived; true when anything did.
    private mutating func drain() -> Bool {
        let contents = inbox.take()
        var any = false
        for batch in contents.batches {
            var newest: Double?
            for event in batch.events {
                switch event {
                case .packet(let packet):
                    guard packet.timestamp.isFinite else { continue }
                    // A malformed packet is skipped here; `scan` and the monitor count them.
                    try? decoder.decode(packet) { state.observe($0) }
                    newest = max(newest ?? packet.timestamp, packet.timestamp)
                case .sighting(let sighting, _):
                    state.observe(sighting)
                    if sighting.timestamp.isFinite { newest = max(newest ?? sighting.timestamp, sighting.timestamp) }
                case .brokerMessage:
                    // A venue's messages carry no beacon frames to sample (`survey` refuses mqtt://).
                    continue
                case .notice(let notice):
                    // A lost source is said on the info line, never a crash; a first connect is no news.
                    switch notice {
                    case .connected(let source): state.connected(source)
                    case .lost: state.lose(notice.description)
                    case .ended: state.end(notice.description)
                    case .unreadable, .sought: continue
                    default: state.note(notice.description)
                    }
                }
                any = true
            }
            if let newest { clock = (max(clock?.capture ?? newest, newest), batch.arrival) }
        }
        return any
    }

    /// The capture time reached: the newest packet's, run on at `rate` since its batch arrived.
    private func captureTime() -> Double {
        clock.map { $0.capture + (now() - $0.wall) * rate } ?? .nan
    }
}
