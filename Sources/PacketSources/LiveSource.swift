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
/// radio cannot wait), stamping each packet with its arrival time (Unix seconds). When the
/// transport fails the source says so (`.lost`), then reconnects with back-off until stopped, and
/// runs the `onReconnect` action (a controller that came back forgot its scan or advertising).
///
/// Commands go out through `execute`, which writes the command, delivers it with the packets (so a
/// recording holds both directions) and waits for its Command Complete or Command Status.
public final class LiveSource: HCICommandExecutor, PacketSource, Sendable {
    public let spec: SourceSpec
    private let opener: TransportOpener
    private let backoff: ReconnectBackoff
    private let commandTimeout: Double
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    private struct State {
        var transport: OpenTransport? {
            didSet { armCrashStop() }
        }
        var stopped = false
        var waiters: [UInt16: CheckedContinuation<HCICommandResponse, any Error>] = [:]
        /// The H4 bytes a crash handler writes to the open transport (`setCrashStop`).
        var crashStop: [UInt8]? {
            didSet { armCrashStop() }
        }
        var guardsCrashes = false
        var sink: (any SourceSink)?
        var onReconnect: (@Sendable () async -> String?)?

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
    }

    public init(
        spec: SourceSpec, opener: TransportOpener = TransportOpener(), backoff: ReconnectBackoff = ReconnectBackoff(),
        commandTimeout: Double = 3, now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.spec = spec
        self.opener = opener
        self.backoff = backoff
        self.commandTimeout = commandTimeout
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

    /// Runs `action` each time the transport is back after a loss; a message it returns is
    /// delivered as `.restartFailed` ("scanning not restarted: ...").
    public func onReconnect(_ action: @escaping @Sendable () async -> String?) {
        state.withLock { $0.onReconnect = action }
    }

    /// Stops reading; the thread closes the transport within a poll interval and finishes the sink.
    public func stop() {
        let waiters = state.withLock { state in
            state.stopped = true
            let waiters = state.waiters
            state.waiters = [:]
            return waiters
        }
        for waiter in waiters.values { waiter.resume(throwing: TransportError.closed(spec: spec.description)) }
    }

    public func execute(_ command: HCICommand) async throws -> HCICommandResponse {
        guard spec.acceptsCommands else { throw TransportError.commandsNotAccepted(spec: spec.description) }
        let timeout = commandTimeout
        return try await withCheckedThrowingContinuation { waiter in
            let fd: Int32? = state.withLock { state in
                guard !state.stopped, let transport = state.transport else { return nil }
                state.waiters[command.opcode] = waiter
                return transport.fd
            }
            guard let fd else {
                waiter.resume(throwing: TransportError.closed(spec: spec.description))
                return
            }
            deliver([.packet(command.packet(at: now()))])
            do throws(SystemCallError) {
                try opener.calls.write(fd, [H4PacketType.command.rawValue] + command.payload)
            } catch {
                // The kernel refuses commands at write, not at bind: ENETDOWN (adapter down), EPERM
                // (an unprivileged raw socket, outside the kernel's read-only command filter).
                let failure: TransportError = if case .kernel = spec {
                    .kernel(error, spec: spec, existing: opener.adapters())
                } else {
                    .failed(spec: spec.description, error)
                }
                takeWaiter(command.opcode)?.resume(throwing: failure)
                return
            }
            Task { [self] in
                try? await Task.sleep(for: .seconds(timeout))
                takeWaiter(command.opcode)?.resume(throwing: TransportError.commandTimedOut(command: command.name, seconds: timeout))
            }
        }
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

    private func takeWaiter(_ opcode: UInt16) -> CheckedContinuation<HCICommandResponse, any Error>? {
        state.withLock { $0.waiters.removeValue(forKey: opcode) }
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
                continue
            }
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

    private func deliver(_ events: [SourceEvent]) {
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
            defer { state.transport = nil; state.waiters = [:]; state.lostReason = reason }
            return (state.transport, state.waiters)
        }
        if let transport { opener.calls.close(transport.fd) }
        for waiter in waiters.values { waiter.resume(throwing: TransportError.closed(spec: spec.description)) }
        deliver([.notice(.lost(source: spec.description, reason: reason))])
    }

    /// Tries to reopen until it works or the source is stopped; false when stopped.
    private func reconnect() -> Bool {
        var attempt = 1
        var reason = state.withLock { $0.lostReason }
        while !isStopped {
            let delay = backoff.delay(attempt: attempt)
            deliver([.notice(.reconnecting(source: spec.description, attempt: attempt, delay: delay, reason: reason))])
            var waited = 0.0
            while waited < delay && !isStopped {
                Thread.sleep(forTimeInterval: min(0.1, delay - waited))
                waited += 0.1
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
            if let action = state.withLock({ $0.onReconnect }) {
                let name = spec.description
                Task { [self] in
                    if let failure = await action() { deliver([.notice(.restartFailed(source: name, message: failure))]) }
                }
            }
            return true
        }
        return false
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
        for response in responses { takeWaiter(response.opcode)?.resume(returning: response) }
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
