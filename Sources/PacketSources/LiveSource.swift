import CRadioGuard
import Foundation
import HCI
import Synchronization

/// Something that runs HCI commands and returns the controller's answer: a live source, or a
/// scripted controller in tests.
public protocol HCICommandExecutor: Sendable {
    func execute(_ command: HCICommand) async throws -> HCICommandResponse
}

/// A live HCI source: a kernel socket or an H4 byte stream. A thread of its own reads the
/// transport and delivers what each read brought into the consumer's inbox (`.dropWhenFull`: a
/// radio cannot wait), stamping each packet with its arrival time (Unix seconds, `LiveClock`: never running back). When the
/// transport fails the source says so (`.lost`), then reconnects with back-off until stopped, and
/// runs the `onReconnect` action (a controller that came back forgot its scan or advertising),
/// again on the retry back-off while the controller refuses it and the transport stays open
/// (a dongle still initialising, another host holding it).
///
/// Commands go out through `execute` (LiveSource+Commands.swift), which writes the command,
/// delivers it with the packets (so a recording holds both directions) and waits for its Command
/// Complete or Command Status.
public final class LiveSource: HCICommandExecutor, PacketSource, Sendable {
    public let spec: SourceSpec
    let opener: TransportOpener
    private let backoff: ReconnectBackoff
    /// Runs the restart action, away from the cooperative pool (see `ThreadTaskExecutor`).
    private let restartExecutor: ThreadTaskExecutor
    let commandTimeout: Double
    let commandTimer: CommandTimer
    let now: @Sendable () -> Double
    let state: Mutex<State>

    struct State {
        var transport: OpenTransport? {
            didSet { armCrashStop() }
        }
        var stopped = false
        var commands = CommandFlow()
        /// The H4 bytes a crash handler writes to the open transport (`setCrashStop`).
        var crashStop: [UInt8]? {
            didSet { armCrashStop() }
        }
        var guardsCrashes = false
        /// Bytes of this connection that framed no H4 packet (skipped, or held for a packet that has
        /// not completed), for a command's timeout to mention.
        var unframedBytes = 0
        var sink: (any SourceSink)?
        var onReconnect: (@Sendable () async -> String?)?
        /// What the action restarts ("scanning", "advertising"), for the notices.
        var restarting = "scanning"
        var restarts: RestartRetries
        /// The running try, for `endRestarts` to wait for.
        var restartTask: Task<Void, Never>?
        /// Set by `endRestarts`: no try starts any more.
        var restartsEnded = false

        /// Keeps CRadioGuard pointed at the current descriptor (one live source per process uses it).
        func armCrashStop() {
            guard guardsCrashes else { return }
            if let crashStop, let transport {
                _ = crashStop.withUnsafeBufferPointer { crg_arm(transport.fd, $0.baseAddress, $0.count) }
            } else {
                crg_disarm()
            }
        }
        /// Why the transport was dropped, for the reconnect messages.
        var lostReason = ""
        /// Set when a command got no credit: the controller is treated as lost, and the reading
        /// thread drops the transport at its next turn (it alone closes and reopens it).
        var controllerLost: String?
        /// Late answers discarded (`CommandFlow`): the first is told, then every tenfold count.
        var lateAnswers = 0

        init(restartBackoff: ReconnectBackoff) {
            restarts = RestartRetries(backoff: restartBackoff)
        }
    }

    public init(
        spec: SourceSpec, opener: TransportOpener = TransportOpener(), backoff: ReconnectBackoff = LiveSource.reconnects,
        restartBackoff: ReconnectBackoff = LiveSource.restartRetries,
        commandTimeout: Double = 3, commandTimer: @escaping CommandTimer = LiveSource.sleepingTimer,
        now: @escaping @Sendable () -> Double = SourceInbox.wallClock
    ) {
        self.spec = spec
        self.opener = opener
        self.backoff = backoff
        state = Mutex(State(restartBackoff: restartBackoff))
        restartExecutor = ThreadTaskExecutor(name: "restart \(spec)")
        self.commandTimeout = commandTimeout
        self.commandTimer = commandTimer
        self.now = now
    }

    public var name: String { spec.description }

    /// Opens the transport (start-up errors are thrown, so they can be printed before any
    /// screen is drawn) and starts the reading thread.
    public func start(into sink: any SourceSink) throws(TransportError) {
        let transport = try opener.open(spec)
        state.withLock {
            $0.transport = transport
            $0.sink = sink
        }
        deliver(opened(transport))
        let thread = Thread { [self] in readLoop() }
        thread.name = "beacontop source \(spec)"
        thread.start()
    }

    /// Runs `action` each time the transport is back after a loss, and again on the retry back-off
    /// while it fails and the transport stays open. What went wrong, which it returns, is delivered
    /// as `.restartFailed` ("scanning not restarted (retrying in 2 s): LE Set ..."; `activity` names
    /// what is restarted); a success after a refusal as `.restarted`.
    public func onReconnect(restarting activity: String = "scanning", _ action: @escaping @Sendable () async -> String?) {
        state.withLock {
            $0.onReconnect = action
            $0.restarting = activity
        }
    }

    /// Ends the restarts before an exit path sends its disable: no try starts any more, and one
    /// running is waited for (its commands would otherwise interleave with the disable, and an
    /// enable answered after it would leave the controller scanning or advertising).
    public func endRestarts() async {
        let running = state.withLock { state in
            state.restartsEnded = true
            return state.restartTask
        }
        await running?.value
    }

    /// `endRestarts` was called (for tests).
    var restartsHaveEnded: Bool { state.withLock { $0.restartsEnded } }

    /// Stops reading; the thread closes the transport within a poll interval and finishes the sink.
    public func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            return state.commands.removeAll()
        }
        for waiter in waiters { waiter.resume(throwing: TransportError.closed(spec: spec.description)) }
    }

    /// The command that undoes what beacontop started on the controller (the scan or advertising
    /// disable), written by a crash handler if the process dies before it can send it the normal way
    /// (docs/exit-paths.md); nil once it was sent. It follows the transport across reconnects.
    public func setCrashStop(_ command: HCICommand?) {
        crg_install()
        state.withLock { state in
            state.guardsCrashes = true
            state.crashStop = command.map { [H4PacketType.command.rawValue] + $0.payload }
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func readLoop() {
        var framer = H4Framer()
        // A controller sending noise would otherwise print hundreds of framing lines a second.
        var framingMessages = MessageRateLimiter()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let calls = opener.calls
        while !isStopped {
            guard let transport = state.withLock({ $0.transport }) else {
                guard reconnect() else { break }
                framer = H4Framer()
                state.withLock { $0.unframedBytes = 0 }
                continue
            }
            if let reason = state.withLock({ $0.controllerLost }) {
                dropTransport(reason: reason)
                continue
            }
            startRestartIfDue()
            do throws(SystemCallError) {
                guard try calls.waitReadable(transport.fd, timeoutMilliseconds: 200) else { continue }
                let count = try calls.read(transport.fd, into: &buffer)
                guard count > 0 else { throw SystemCallError(call: "read (end of stream)", errno: 0) }
                deliver(buffer[0..<count], framing: transport.framing, framer: &framer, limiter: &framingMessages)
            } catch {
                if isStopped { break }
                dropTransport(reason: lossReason(error))
            }
        }
        if let transport = state.withLock({ state -> OpenTransport? in
            defer { state.transport = nil }
            return state.transport
        }) {
            calls.close(transport.fd)
        }
        deliver([.notice(.ended(source: spec.description, reason: "stopped"))])
        state.withLock { $0.sink }?.finish()
    }

    func deliver(_ events: [SourceEvent]) {
        state.withLock { $0.sink }?.deliver(events, .dropWhenFull)
    }

    /// A kernel socket whose adapter is unregistered (a dongle pulled, the vhci device closed) fails
    /// its reads with EPIPE (Linux `hci_sock_dev_event`, HCI_DEV_UNREG), as observed in the VM tests.
    private func lossReason(_ error: SystemCallError) -> String {
        if error.errno == 0 { return "the other end closed the connection" }
        if case .kernel = spec, error.errno == EPIPE { return "adapter removed: read gave EPIPE" }
        return error.description
    }

    private func dropTransport(reason: String) {
        let (transport, waiters) = state.withLock { state in
            defer { state.transport = nil; state.lostReason = reason; state.controllerLost = nil; state.restarts.lost() }
            return (state.transport, state.commands.removeAll())
        }
        if let transport { opener.calls.close(transport.fd) }
        // With the reason: a start-up on a port where something accepts and hangs up said only
        // `tcp:HOST:PORT was closed`.
        for waiter in waiters { waiter.resume(throwing: TransportError.lostBeforeAnswer(spec: spec.description, reason: reason)) }
        deliver([.notice(.lost(source: spec.description, reason: reason))])
    }

    /// Tries to reopen until it works or the source is stopped; false when stopped.
    private func reconnect() -> Bool {
        var attempt = 1
        var reason = state.withLock { $0.lostReason }
        while !isStopped {
            let delay = backoff.delay(attempt: attempt)
            deliver([.notice(.reconnecting(source: spec.description, attempt: attempt, delay: delay, reason: reason))])
            // Against the clock, not by counting naps: a nap that wakes late (a loaded machine) made
            // every delay longer than it said.
            let due = Self.uptime + delay
            while !isStopped, case let left = due - Self.uptime, left > 0 {
                Thread.sleep(forTimeInterval: min(0.1, left))
            }
            if isStopped { return false }
            let transport: OpenTransport
            do { transport = try opener.open(spec) } catch {
                reason = error.detail
                attempt += 1
                continue
            }
            let installed = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.transport = transport
                return true
            }
            guard installed else { opener.calls.close(transport.fd); return false }
            deliver(opened(transport))
            // The read loop starts the restart once the notices are out.
            state.withLock { $0.restarts.reconnected(at: Self.uptime) }
            return true
        }
        return false
    }

    /// Monotonic seconds, for the restart schedule.
    static var uptime: Double { ProcessInfo.processInfo.systemUptime }

    /// Starts the restart action when a try is due (on this reading thread, as reconnects are). The
    /// action runs on the restart executor, since it awaits answers this thread reads.
    private func startRestartIfDue() {
        let name = spec.description
        state.withLock { locked in
            guard !locked.stopped, !locked.restartsEnded, let action = locked.onReconnect,
                  let tries = locked.restarts.start(at: Self.uptime) else { return }
            let connection = locked.restarts.connection
            let activity = locked.restarting
            // Made under the lock, so `endRestarts` either prevents it or finds it.
            locked.restartTask = Task(executorPreference: restartExecutor) { [self] in
                let failure = await action()
                let notice: SourceNotice? = self.state.withLock { state in
                    let (current, retryIn) = state.restarts.ended(connection: connection, refused: failure != nil, at: Self.uptime)
                    // A try that failed for want of credit is followed by the loss, which says so.
                    guard current, !state.stopped, !state.restartsEnded, state.controllerLost == nil else { return nil }
                    // The delay before the reason: a monitor's event log cuts a long message at its end.
                    let retrying = retryIn.map { " (retrying in \(SourceNotice.seconds($0)) s)" } ?? ""
                    if let failure { return .restartFailed(source: name, message: "\(activity) not restarted\(retrying): \(failure)", retryIn: retryIn) }
                    return tries > 1 ? .restarted(source: name, activity: activity, tries: tries) : nil
                }
                if let notice { deliver([.notice(notice)]) }
            }
        }
    }

    /// The notices of a transport just opened: connected, and powered on when it was down.
    private func opened(_ transport: OpenTransport) -> [SourceEvent] {
        var notices: [SourceEvent] = [.notice(.connected(source: spec.description))]
        if transport.poweredOn { notices.append(.notice(.poweredOn(source: spec.description))) }
        return notices
    }

    /// Frames what one read brought and delivers it as one batch; framing messages pass `limiter`.
    private func deliver(
        _ bytes: ArraySlice<UInt8>, framing: TransportFraming, framer: inout H4Framer, limiter: inout MessageRateLimiter
    ) {
        let time = now()
        var events: [SourceEvent] = []
        var responses: [HCICommandResponse] = []
        switch framing {
        case .h4:
            framer.append(bytes)
            defer {
                // Counted as they are skipped (a run of noise is reported only once a packet ends it),
                // and the bytes held for a packet's rest: noise that starts with an indicator byte
                // reads as a packet of up to 64 KiB, which never completes.
                let unframed = framer.skippedByteCount + framer.bufferedByteCount
                state.withLock { $0.unframedBytes = unframed }
            }
            while let output = framer.next() {
                switch output {
                case .packet(let type, let payload):
                    events.append(.packet(answering(HCIPacket(timestamp: time, direction: .controllerToHost, type: type, payload: payload[...]), into: &responses)))
                case .skipped(let indicator, let offset, let count):
                    guard let note = limiter.admit(at: time) else { continue }
                    let hex = String(indicator, radix: 16, uppercase: true)
                    events.append(.notice(.framingError(
                        source: spec.description,
                        detail: "skipped \(count) byte(s) at stream offset \(offset): 0x\(hex) is not an H4 packet indicator\(note)")))
                }
            }
        case .monitor:
            do {
                var adapter: Int?
                if case .kernel(let index, _) = spec { adapter = index }
                if let packet = try MonitorPacketDecoder.decode(bytes, at: time, adapter: adapter) {
                    events.append(.packet(answering(packet, into: &responses)))
                }
            } catch {
                guard let note = limiter.admit(at: time) else { break }
                events.append(.notice(.framingError(source: spec.description, detail: error.description + note)))
            }
        }
        // The batch first, then the commands waiting for an answer in it: a recording keeps each
        // response before the next command.
        deliver(events)
        answer(responses)
    }

    /// Notes a Command Complete or Command Status for the command waiting for it; returns the packet.
    private func answering(_ packet: HCIPacket, into responses: inout [HCICommandResponse]) -> HCIPacket {
        if packet.type == .event, packet.direction == .controllerToHost,
           let response = try? HCICommandResponse(eventPayload: packet.payload) {
            responses.append(response)
        }
        return packet
    }
}
