import HCI

/// The live source's commands in flight: which go out now, which wait for the controller's credit,
/// and whose answer an event is. Pure bookkeeping; `LiveSource` writes and resumes under its lock.
///
/// Credit is HCI command flow control (Core 5.4 Vol 4 Part E 4.4): every Command Complete or
/// Command Status carries Num_HCI_Command_Packets, the number of commands the controller takes now.
/// A controller may say 0 (some do right after Reset, or while busy) and drop what comes before it
/// grants credit again, often with a Command Complete for opcode 0x0000 (a "NOP"). The host may
/// send one command after opening. As BlueZ's `cmd_cnt` does, credit is held at one at most: one
/// command in flight, so each answer belongs to the one command written.
///
/// Late answers: HCI answers carry an opcode, not which command they answer, so the late answer to
/// a command that timed out would be taken as the answer to the next command with its opcode (a
/// retried Reset, the disable sent after an enable that got no answer), and that command's own
/// answer left for the one after. The rule: a command that timed out leaves its opcode owed an
/// answer. An answer with an owed opcode that no written command waits for is the late one: it
/// only grants credit, and the debt is paid. Before a command with an owed opcode goes out, the
/// source sends Read Local Version Information (`needsBarrier`): a controller answers commands in
/// the order it got them, so once that is answered, every late answer that was coming has come and
/// nothing is owed. (BlueZ matches an answer to the last command sent and has the same ambiguity;
/// it resets the controller when it stops answering. Dropping the owed answer blindly would, on a
/// controller that lost the command rather than answered late, discard every retry's answer.)
struct CommandFlow {
    typealias Continuation = CheckedContinuation<HCICommandResponse, any Error>

    /// A command waiting for credit or for its answer. `id` tells its timeout whose command it
    /// was: an answered command's timer still runs out, and it took the waiter of the next command
    /// with the same opcode (`scan --duration 3`'s disable said 'did not answer ... within 3.0 s' one
    /// run in two; a restart retried within 3 s of a try failed as timed out).
    struct Pending {
        var id: UInt64
        var command: HCICommand
        var continuation: Continuation
        /// Sent to learn that nothing owed is coming (`needsBarrier`).
        var isBarrier = false
    }

    /// An answer to a command that had timed out, discarded: what a notice says of it.
    struct LateAnswer: Equatable {
        var opcode: UInt16
        /// From the command's timeout to its answer.
        var secondsLate: Double
    }

    /// What a command's timer found.
    enum Expiry {
        /// Written and not answered.
        case unanswered(Pending)
        /// Never written: the controller gave no credit in time.
        case noCredit(Pending)
    }

    /// Commands the controller takes now (0 or 1).
    private(set) var credit = 1
    /// The answer that last withheld credit, for a held command's timeout to name.
    private(set) var withheldBy: UInt16?
    private var written: [UInt16: Pending] = [:]
    private var held: [Pending] = []
    private var nextID: UInt64 = 0
    /// Opcodes of commands that timed out unanswered, whose late answer may still come, with when
    /// they timed out (the caller's clock).
    private var owed: [UInt16: Double] = [:]

    /// A command with `opcode` must wait for a barrier (Read Local Version Information answered).
    func needsBarrier(_ opcode: UInt16) -> Bool { owed[opcode] != nil }

    /// Takes a command (`barrier`: the Read Local Version Information of `needsBarrier`): `write`
    /// true when it may go out now (it spends the credit), else it is held.
    mutating func submit(_ command: HCICommand, _ continuation: Continuation, barrier: Bool = false) -> (pending: Pending, write: Bool) {
        nextID += 1
        let pending = Pending(id: nextID, command: command, continuation: continuation, isBarrier: barrier)
        guard credit > 0 else {
            held.append(pending)
            return (pending, false)
        }
        credit -= 1
        written[command.opcode] = pending
        return (pending, true)
    }

    /// A Command Complete or Status, come at `now`: its Num_HCI_Command_Packets is the credit now.
    /// Returns the command it answers (nil for an answer nobody waits for, or a NOP), a held command
    /// that may go out now, and, when it is the late answer to a command that timed out, that.
    mutating func answer(_ response: HCICommandResponse, at now: Double) -> (answered: Continuation?, next: Pending?, late: LateAnswer?) {
        credit = min(Int(response.allowedCommandPackets), 1)
        withheldBy = credit == 0 ? response.opcode : nil
        let answered = written.removeValue(forKey: response.opcode)
        var late: LateAnswer?
        if answered == nil, let timedOut = owed.removeValue(forKey: response.opcode) {
            late = LateAnswer(opcode: response.opcode, secondsLate: now - timedOut)
        }
        if answered?.isBarrier == true { owed = [:] }
        return (answered?.continuation, releaseHeld(), late)
    }

    /// A command's timer ran out: nil when it was answered already. A command written and not
    /// answered gives its credit back (BlueZ's `hci_cmd_timeout` does the same): the controller
    /// lost it, or will answer late; either way the next command is tried.
    mutating func expire(id: UInt64, at now: Double) -> (expired: Expiry, next: Pending?)? {
        if let index = held.firstIndex(where: { $0.id == id }) {
            return (.noCredit(held.remove(at: index)), nil)
        }
        guard let (opcode, pending) = written.first(where: { $0.value.id == id }) else { return nil }
        written[opcode] = nil
        credit = 1
        owed[opcode] = now
        return (.unanswered(pending), releaseHeld())
    }

    /// A write that failed: the command never reached the controller, so its credit is unspent.
    mutating func unsent(id: UInt64) -> (failed: Continuation?, next: Pending?) {
        guard let (opcode, pending) = written.first(where: { $0.value.id == id }) else { return (nil, nil) }
        written[opcode] = nil
        credit = 1
        return (pending.continuation, releaseHeld())
    }

    /// Every command waiting, written or held, for a lost or stopped transport; a new connection
    /// starts with the one command a host may send.
    mutating func removeAll() -> [Continuation] {
        let waiting = written.values.map(\.continuation) + held.map(\.continuation)
        // The ids go on: a timer of a command of the old connection must not find a new one.
        let nextID = nextID
        self = CommandFlow()
        self.nextID = nextID
        return waiting
    }

    /// The first held command when there is credit for it, which it spends.
    private mutating func releaseHeld() -> Pending? {
        guard credit > 0, !held.isEmpty else { return nil }
        let next = held.removeFirst()
        credit -= 1
        written[next.command.opcode] = next
        return next
    }
}
