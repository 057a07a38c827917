import Foundation
import HCI
import Testing
@testable import PacketSources

/// HCI command flow control (Core 5.4 Vol 4 Part E 4.4) against Bumble controllers told to
/// withhold their credit (Tests/bumble/beacon_world.py `--withhold-credit`): the commands a live
/// source holds back, and what it says when no credit comes.
@Suite("Live source command flow", .serialized)
struct LiveSourceCommandFlowTests {
    /// A Bumble world with one controller behaving as `options` say, its command log, and a live
    /// source on it with `timeout` per command.
    static func withController(
        _ options: [String], timeout: Double, _ body: (LiveSource, () -> [String]) async throws -> Void
    ) async throws {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("commands-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: log) }
        let world = try BumbleWorld(controllers: 1, advertisers: false, options: options + ["--command-log", log.path])
        defer { world.stop() }
        let source = LiveSource(spec: .tcp(host: "127.0.0.1", port: world.ports[0]), commandTimeout: timeout)
        try source.start(into: SourceInbox())
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
}
