import Foundation
import HCI
import Synchronization

/// Something that runs HCI commands and returns the controller's answer: a live source, or a
/// scripted controller in tests.
public protocol HCICommandExecutor: Sendable {
    func execute(_ command: HCICommand) async throws -> HCICommandResponse
}

/// A live HCI source: a kernel socket or an H4 byte stream. A thread of its own reads the
/// transport and hands `Sendable` events to the consumer through `events`, stamping each packet
/// with its arrival time (Unix seconds). When the transport fails the source says so
/// (`.lost`), then reconnects with back-off until stopped.
///
/// Commands go out through `execute`, which writes the command, shows it in `events` (so a
/// recording holds both directions) and waits for its Command Complete or Command Status.
public final class LiveSource: HCICommandExecutor, Sendable {
    public let spec: SourceSpec
    public let events: AsyncStream<SourceEvent>
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private let opener: TransportOpener
    private let backoff: ReconnectBackoff
    private let commandTimeout: Double
    private let now: @Sendable () -> Double
    private let state = Mutex(State())

    private struct State {
        var transport: OpenTransport?
        var stopped = false
        var waiters: [UInt16: CheckedContinuation<HCICommandResponse, any Error>] = [:]
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
        (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self, bufferingPolicy: .bufferingNewest(100_000))
    }

    /// Opens the transport (start-up errors are thrown, so they can be printed before any
    /// screen is drawn) and starts the reading thread.
    public func start() throws(TransportError) {
        let transport = try opener.open(spec)
        state.withLock { $0.transport = transport }
        continuation.yield(.notice(.connected(source: spec.description)))
        let thread = Thread { [self] in readLoop() }
        thread.name = "beacontop source \(spec)"
        thread.start()
    }

    /// Stops reading; the thread closes the transport within a poll interval and ends `events`.
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
            continuation.yield(.packet(command.packet(at: now())))
            do throws(SystemCallError) {
                try opener.calls.write(fd, [H4PacketType.command.rawValue] + command.payload)
            } catch {
                takeWaiter(command.opcode)?.resume(throwing: TransportError.failed(spec: spec.description, error))
                return
            }
            Task { [self] in
                try? await Task.sleep(for: .seconds(timeout))
                takeWaiter(command.opcode)?.resume(throwing: TransportError.commandTimedOut(command: command.name, seconds: timeout))
            }
        }
    }

    private func takeWaiter(_ opcode: UInt16) -> CheckedContinuation<HCICommandResponse, any Error>? {
        state.withLock { $0.waiters.removeValue(forKey: opcode) }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func readLoop() {
        var framer = H4Framer()
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
                deliver(buffer[0..<count], framing: transport.framing, framer: &framer)
            } catch {
                if isStopped { break }
                dropTransport(reason: error.errno == 0 ? "the other end closed the connection" : error.description)
            }
        }
        if let transport = state.withLock({ state -> OpenTransport? in
            defer { state.transport = nil }
            return state.transport
        }) {
            calls.close(transport.fd)
        }
        continuation.yield(.notice(.ended(source: spec.description, reason: "stopped")))
        continuation.finish()
    }

    private func dropTransport(reason: String) {
        let (transport, waiters) = state.withLock { state in
            defer { state.transport = nil; state.waiters = [:] }
            return (state.transport, state.waiters)
        }
        if let transport { opener.calls.close(transport.fd) }
        for waiter in waiters.values { waiter.resume(throwing: TransportError.closed(spec: spec.description)) }
        continuation.yield(.notice(.lost(source: spec.description, reason: reason)))
    }

    /// Tries to reopen until it works or the source is stopped; false when stopped.
    private func reconnect() -> Bool {
        var attempt = 1
        while !isStopped {
            let delay = backoff.delay(attempt: attempt)
            continuation.yield(.notice(.reconnecting(source: spec.description, attempt: attempt, delay: delay)))
            var waited = 0.0
            while waited < delay && !isStopped {
                Thread.sleep(forTimeInterval: min(0.1, delay - waited))
                waited += 0.1
            }
            if isStopped { return false }
            if let transport = try? opener.open(spec) {
                let installed = state.withLock { state -> Bool in
                    guard !state.stopped else { return false }
                    state.transport = transport
                    return true
                }
                guard installed else { opener.calls.close(transport.fd); return false }
                continuation.yield(.notice(.connected(source: spec.description)))
                return true
            }
            attempt += 1
        }
        return false
    }

    private func deliver(_ bytes: ArraySlice<UInt8>, framing: TransportFraming, framer: inout H4Framer) {
        let time = now()
        switch framing {
        case .h4:
            framer.append(bytes)
            while let output = framer.next() {
                switch output {
                case .packet(let type, let payload):
                    emit(HCIPacket(timestamp: time, direction: .controllerToHost, type: type, payload: payload[...]))
                case .skipped(let indicator, let offset, let count):
                    let hex = String(indicator, radix: 16, uppercase: true)
                    continuation.yield(.notice(.framingError(
                        source: spec.description,
                        detail: "skipped \(count) byte(s) at stream offset \(offset): 0x\(hex) is not an H4 packet indicator")))
                }
            }
        case .monitor:
            do {
                var adapter: Int?
                if case .kernel(let index, _) = spec { adapter = index }
                if let packet = try MonitorPacketDecoder.decode(bytes, at: time, adapter: adapter) { emit(packet) }
            } catch {
                continuation.yield(.notice(.framingError(source: spec.description, detail: error.description)))
            }
        }
    }

    private func emit(_ packet: HCIPacket) {
        continuation.yield(.packet(packet))
        guard packet.type == .event, packet.direction == .controllerToHost,
              let response = try? HCICommandResponse(eventPayload: packet.payload) else { return }
        takeWaiter(response.opcode)?.resume(returning: response)
    }
}
