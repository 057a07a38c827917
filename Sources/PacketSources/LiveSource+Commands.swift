import Foundation
import HCI

/// The command path of a live source: commands go out under the controller's credit
/// (`CommandFlow`), their answers come back from the reading thread, and their timers fail them.
extension LiveSource {
    /// Writes `command` when the controller has credit for it (`CommandFlow`), else holds it until
    /// an answer grants credit; its timeout counts from here, so a controller that never grants
    /// credit fails it as `noCommandCredit`, not as unanswered. A command whose opcode timed out
    /// before waits for a barrier first, so the late answer is not taken for its own.
    public func execute(_ command: HCICommand) async throws -> HCICommandResponse {
        guard spec.acceptsCommands else { throw TransportError.commandsNotAccepted(spec: spec.description) }
        if state.withLock({ $0.commands.needsBarrier(command.opcode) }) {
            _ = try await issue(.readLocalVersionInformation, barrier: true)
        }
        return try await issue(command, barrier: false)
    }

    private func issue(_ command: HCICommand, barrier: Bool) async throws -> HCICommandResponse {
        let timeout = commandTimeout
        return try await withCheckedThrowingContinuation { waiter in
            let submitted: (fd: Int32, pending: CommandFlow.Pending, write: Bool)? = state.withLock { state in
                guard !state.stopped, let transport = state.transport else { return nil }
                let (pending, write) = state.commands.submit(command, waiter, barrier: barrier)
                return (transport.fd, pending, write)
            }
            guard let (fd, pending, write) = submitted else {
                waiter.resume(throwing: TransportError.closed(spec: spec.description))
                return
            }
            if write { send(pending, fd: fd) }
            commandTimer(timeout) { [self] in expire(pending.id, command: command.name, after: timeout) }
        }
    }

    /// Delivers the command with the packets (a recording holds both directions) and writes it; a
    /// failed write fails it, and the held command its credit now allows goes out instead.
    private func send(_ pending: CommandFlow.Pending, fd: Int32) {
        var next: CommandFlow.Pending? = pending
        while let pending = next {
            deliver([.packet(pending.command.packet(at: now()))])
            do throws(SystemCallError) {
                try opener.calls.write(fd, [H4PacketType.command.rawValue] + pending.command.payload)
                return
            } catch {
                // The kernel refuses commands at write, not at bind: ENETDOWN (adapter down), EPERM
                // (an unprivileged raw socket, outside the kernel's read-only command filter).
                let failure: TransportError = if case .kernel = spec {
                    .kernel(error, spec: spec, existing: opener.adapters())
                } else {
                    .failed(spec: spec.description, error)
                }
                let (failed, following) = state.withLock { $0.commands.unsent(id: pending.id) }
                failed?.resume(throwing: failure)
                next = following
            }
        }
    }

    /// A command's timer ran out: it fails unless it was answered; one it held back may go out.
    private func expire(_ id: UInt64, command: String, after timeout: Double) {
        let found = state.withLock { state -> (CommandFlow.Expiry, CommandFlow.Pending?, fd: Int32?, unframed: Int, withheldBy: UInt16?)? in
            let withheldBy = state.commands.withheldBy
            guard let (expired, next) = state.commands.expire(id: id, at: Self.uptime) else { return nil }
            return (expired, next, state.transport?.fd, state.unframedBytes, withheldBy)
        }
        guard let (expired, next, fd, unframed, withheldBy) = found else { return }
        switch expired {
        case .unanswered(let pending):
            pending.continuation.resume(throwing: TransportError.commandTimedOut(command: command, seconds: timeout, unframedBytes: unframed))
        case .noCredit(let pending):
            let failure = TransportError.noCommandCredit(
                command: command, seconds: timeout, withheldBy: withheldBy.map(HCICommand.name(ofOpcode:)))
            // As BlueZ resets a controller after its command timeout: otherwise every later command
            // failed the same way until the controller granted credit, which a wedged one never
            // does. Reconnecting runs the restart, whose Reset is the one command a host may send.
            state.withLock { state in
                if state.transport != nil, state.controllerLost == nil {
                    state.controllerLost = "\(failure.description); treated as a lost controller, to reset it"
                }
            }
            pending.continuation.resume(throwing: failure)
        }
        if let next, let fd { send(next, fd: fd) }
    }

    /// The answers one read brought (delivered already, so a recording keeps each before the next
    /// command): each resumes the command it answers, and a held command its credit allows goes out.
    func answer(_ responses: [HCICommandResponse]) {
        for response in responses {
            let name = spec.description
            let (answered, next, fd, notice) = state.withLock { state -> (CommandFlow.Continuation?, CommandFlow.Pending?, Int32?, SourceNotice?) in
                let (answered, next, late) = state.commands.answer(response, at: Self.uptime)
                guard let late else { return (answered, next, state.transport?.fd, nil) }
                state.lateAnswers += 1
                return (answered, next, state.transport?.fd, Self.lateAnswerNotice(late, count: state.lateAnswers, source: name))
            }
            if let notice { deliver([.notice(notice)]) }
            answered?.resume(returning: response)
            if let next, let fd { send(next, fd: fd) }
        }
    }

    /// What to say of the `count`th discarded late answer: a line the first time, then one at 10,
    /// 100, ... (a controller answering everything late would otherwise fill the log).
    static func lateAnswerNotice(_ late: CommandFlow.LateAnswer, count: Int, source: String) -> SourceNotice? {
        let answer = "answer to \(HCICommand.name(ofOpcode: late.opcode)) (timed out \(String(format: "%.1f", late.secondsLate)) s earlier)"
        if count == 1 { return .warning(source: source, message: "late \(answer) discarded") }
        let digits = String(count)
        guard count >= 10, digits.hasPrefix("1"), digits.dropFirst().allSatisfy({ $0 == "0" }) else { return nil }
        return .warning(source: source, message: "\(count) late answers discarded, the last an \(answer)")
    }
}
