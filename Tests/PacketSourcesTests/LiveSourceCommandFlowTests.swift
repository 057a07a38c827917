import Foundation
import HCI
import Synchronization
import Testing
@testable import PacketSources

/// HCI command flow control (Core 5.4 Vol 4 Part E 4.4) against Bumble controllers told to
/// withhold their credit or answer late (Tests/bumble/beacon_world.py `--withhold-credit`,
/// `--late`): the commands a live source holds back, what it says when no credit comes, and whose
/// answer a late one is.
@Suite("Live source command flow", .serialized)
struct LiveSourceCommandFlowTests {
    /// A Bumble world with one controller behaving as `options` say, its command log, and a live
    /// source on it with `timeout` per command (run by `timer`).
    static func withController(
        _ options: [String], timeout: Double, timer: @escaping LiveSource.CommandTimer = LiveSource.sleepingTimer,
        inbox: SourceInbox = SourceInbox(), _ body: (LiveSource, () -> [String]) async throws -> Void
    ) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: log) }
        let world = try BumbleWorld(controllers: 1, advertisers: false, options: options + ["--command-log", log.path])
        defer { world.stop() }
        let source = LiveSource(
            spec: .tcp(host: "127.0.0.1", port: world.ports[0]), backoff: ReconnectBackoff(initial: 0.1, maximum: 0.4),
            commandTimeout: timeout, commandTimer: timer)
        try source.start(into: inbox)
        defer { source.stop() }
        try await body(source) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    @Test("a controller that answers Reset with no credit gets the next command once it grants credit, and scanning starts")
    func heldUntilCredit() async throws {
        try await Self.withController(["--withhold-credit", "HCI_RESET_COMMAND", "--credit-after", "0.5"], timeout: 5) { source, log in
            // Before: Set Event Mask went out at once, the controller dropped it, and the start
            // failed as 'the controller did not answer Set Event Mask within 5.0 s'.
            let mode = try await ScanProcedure.start(on: source, options: ScanOptions())
            #expect(mode == .extended)
            #expect(!log().contains { $0.contains("dropped") }, "\(log())")
        }
    }

    @Test("a controller that never grants credit fails the next command as given no credit, and it is not sent")
    func noCreditEver() async throws {
        try await Self.withController(["--withhold-credit", "HCI_RESET_COMMAND", "--credit-after", "-1"], timeout: 0.5) { source, log in
            let reset = try await source.execute(.reset)
            #expect(reset.allowedCommandPackets == 0)
            // Before: the command went out, was dropped, and timed out as unanswered.
            await #expect(throws: TransportError.noCommandCredit(command: "Set Event Mask", seconds: 0.5, withheldBy: "Reset")) {
                _ = try await source.execute(.setEventMask(HCICommand.eventMaskWithLEMeta))
            }
            #expect(log().filter { $0.contains("SET_EVENT_MASK") }.isEmpty, "\(log())")
        }
        #expect(TransportError.noCommandCredit(command: "Set Event Mask", seconds: 0.5, withheldBy: "Reset").description
            == "the controller took no command within 0.5 s (Num_HCI_Command_Packets 0 since its answer to Reset), so Set Event Mask was not sent")
    }

    @Test("discarded late answers are told the first time, then at every tenfold count")
    func lateAnswersCounted() {
        let late = CommandFlow.LateAnswer(opcode: HCICommand.reset.opcode, secondsLate: 2.71)
        let lines = (1...1000).compactMap { LiveSource.lateAnswerNotice(late, count: $0, source: "tcp:h:1") }
        #expect(lines.map(\.description) == [
            "tcp:h:1: late answer to Reset (timed out 2.7 s earlier) discarded",
            "tcp:h:1: 10 late answers discarded, the last an answer to Reset (timed out 2.7 s earlier)",
            "tcp:h:1: 100 late answers discarded, the last an answer to Reset (timed out 2.7 s earlier)",
            "tcp:h:1: 1000 late answers discarded, the last an answer to Reset (timed out 2.7 s earlier)",
        ])
    }

    @Test("a controller that never grants credit is treated as lost: the source reconnects and the restart scans")
    func noCreditReconnects() async throws {
        let options = ["--withhold-credit", "HCI_RESET_COMMAND", "--credit-after", "-1", "--withhold-first-connection"]
        let inbox = SourceInbox()
        try await Self.withController(options, timeout: 0.5, inbox: inbox) { source, log in
            let restarts = Mutex<[String?]>([])
            source.onReconnect {
                let failure = await ScanProcedure.restart(on: source, options: ScanOptions())
                restarts.withLock { $0.append(failure) }
                return failure
            }
            _ = try await source.execute(.reset)
            await #expect(throws: TransportError.noCommandCredit(command: "Set Event Mask", seconds: 0.5, withheldBy: "Reset")) {
                _ = try await source.execute(.setEventMask(HCICommand.eventMaskWithLEMeta))
            }
            // Before: nothing was lost, so no restart ran, and every command failed the same way.
            let connected = SourceNotice.connected(source: source.name)
            let events = await inbox.collect(from: source, seconds: 20) { $0.notices.filter { $0 == connected }.count == 2 }
            for _ in 0..<400 where restarts.withLock(\.isEmpty) { try await Task.sleep(for: .milliseconds(50)) }
            #expect(restarts.withLock { $0 } == [nil], "\(events.notices)")
            let losses = events.notices.filter { if case .lost = $0 { true } else { false } }
            #expect(losses == [.lost(source: source.name, reason: "the controller took no command within 0.5 s "
                + "(Num_HCI_Command_Packets 0 since its answer to Reset), so Set Event Mask was not sent; "
                + "treated as a lost controller, to reset it")], "\(events.notices)")
            #expect(log().last?.contains("SCAN_ENABLE") == true && log().last?.contains("\"handled\"") == true, "\(log())")
        }
    }

    @Test("the late answer to a Reset that timed out is not taken for the next Reset's, and its discarding is told")
    func lateAnswerIsNotTheNextOnes() async throws {
        // The first Reset is refused, 3 s late; the second is handled. Only the first command's
        // timer runs out early (0.3 s): the second's answer comes within its 10 s. On a dispatch
        // queue, not the cooperative pool, which other suites hold (LiveSourceRestartTests): a
        // timer there ran out after the late answer had come.
        let timers = Mutex(0)
        let timer: LiveSource.CommandTimer = { _, action in
            let first = timers.withLock { count in
                count += 1
                return count == 1
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + (first ? 0.3 : 10)) { action() }
        }
        let options = ["--late", "HCI_RESET_COMMAND", "--late-by", "3", "--refuse", "HCI_RESET_COMMAND", "--refuse-times", "1"]
        let inbox = SourceInbox()
        try await Self.withController(options, timeout: 10, timer: timer, inbox: inbox) { source, log in
            await #expect(throws: TransportError.commandTimedOut(command: "Reset", seconds: 10)) {
                _ = try await source.execute(.reset)
            }
            // Before: the first Reset's late Command Disallowed was this one's answer.
            let second = try await source.execute(.reset)
            #expect(second.status == .success)
            #expect(log().map { $0.contains("HCI_RESET_COMMAND") ? "reset" : "other" } == ["reset", "other", "reset"], "\(log())")
            // Before: the late answer was dropped without a word.
            source.stop()
            let warnings = await inbox.collect(from: source).notices.compactMap {
                if case .warning(_, let message) = $0 { message } else { nil }
            }
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.hasPrefix("late answer to Reset (timed out ") == true, "\(warnings)")
            #expect(warnings.first?.hasSuffix(" s earlier) discarded") == true, "\(warnings)")
        }
    }
}
