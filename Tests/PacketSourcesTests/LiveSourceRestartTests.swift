import Dispatch
import Foundation
import HCI
import Synchronization
import Testing
import TestFixtures
@testable import PacketSources

/// A refused restart after a reconnect, tried again on the retry back-off (docs/sources.md), with a
/// unix-socket controller that answers HCI Reset as told. Short back-offs; every wait is on a
/// condition, under a watchdog.
@Suite("Live source restart retries", .serialized)
struct LiveSourceRestartTests {
    static let short = ReconnectBackoff(initial: 0.05, maximum: 0.2)

    /// The far end: takes the source's first connection, drops it (so the source reconnects),
    /// takes the second and answers each HCI Reset with the next of `answers` (then success),
    /// on a thread of its own: it blocks on the socket.
    final class Controller: @unchecked Sendable {
        let server: H4SocketServer
        let commands = Mutex(0)
        private let answers: [HCIStatusCode]
        private let held: DispatchSemaphore?

        /// `holding`: each answer waits for `release()`.
        init(answers: [HCIStatusCode], holding: Bool = false) throws {
            server = try H4SocketServer()
            self.answers = answers
            held = holding ? DispatchSemaphore(value: 0) : nil
        }

        func serve(resets: Int) {
            let thread = Thread { [self] in
                server.accept()
                server.dropClient()
                server.accept()
                for index in 0..<resets {
                    guard server.read(4).count == 4 else { return }
                    commands.withLock { $0 += 1 }
                    held?.wait()
                    let status = index < answers.count ? answers[index] : .success
                    server.write([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, status.rawValue])
                }
            }
            thread.start()
        }

        func release() { held?.signal() }
    }

    /// Restarts by resetting the controller, as `ScanProcedure.restart` does with its commands.
    static func resetting(_ source: LiveSource) -> @Sendable () async -> String? {
        { [weak source] in
            do {
                _ = try await source?.run(.reset)
                return nil
            } catch {
                return "\(error)"
            }
        }
    }

    static func restartNotices(_ events: [SourceEvent]) -> [SourceNotice] {
        events.notices.filter {
            switch $0 {
            case .restartFailed, .restarted: true
            default: false
            }
        }
    }

    static func retryDelays(_ events: [SourceEvent]) -> [Double?] {
        events.notices.compactMap { if case .restartFailed(_, _, let retryIn) = $0 { retryIn } else { nil } }
    }

    @Test("a refused restart is tried again on the back-off until the controller takes it, and that is said")
    func refusedRestartIsRetried() async throws {
        let controller = try Controller(answers: [.commandDisallowed, .commandDisallowed])
        let spec = SourceSpec.unix(path: controller.server.path)
        let source = LiveSource(spec: spec, backoff: Self.short, restartBackoff: Self.short)
        source.onReconnect(Self.resetting(source))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        controller.serve(resets: 3)
        // Before: one '.restartFailed' and silence until the next reconnect (the watchdog ends it).
        let events = await inbox.collect(from: source, seconds: 20) { events in
            events.notices.contains { if case .restarted = $0 { true } else { false } }
        }
        source.stop()
        let notices = Self.restartNotices(events)
        #expect(notices.count == 3, "\(notices)")
        #expect(Self.retryDelays(events) == [0.05, 0.1])
        #expect(notices.last == .restarted(source: spec.description, activity: "scanning", tries: 3))
        #expect(notices.first?.description.hasPrefix("\(spec): scanning not restarted (retrying in 0 s): Reset failed: Command Disallowed (0x0C)") == true,
                "\(notices)")
        #expect(controller.commands.withLock { $0 } == 3)
    }

    @Test("the retries go on while every cooperative thread is blocked: they run on the source's threads")
    func retriesNeedNoCooperativeThread() throws {
        let controller = try Controller(answers: [.commandDisallowed, .commandDisallowed])
        let source = LiveSource(spec: .unix(path: controller.server.path), backoff: Self.short, restartBackoff: Self.short)
        source.onReconnect(Self.resetting(source))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        // This test's own thread (it is synchronous) and one blocking wait per core hold the pool
        // (as wide as the cores); they are released however the wait below ends.
        let blocked = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<blockers { Task.detached { blocked.wait() } }
        defer { for _ in 0..<blockers { blocked.signal() } }
        controller.serve(resets: 3)
        var events: [SourceEvent] = []
        let deadline = Date().addingTimeInterval(20)
        while !events.notices.contains(where: { if case .restarted = $0 { true } else { false } }) && Date() < deadline {
            inbox.waitForEvents(timeout: 0.5)
            for batch in inbox.take().batches { events += batch.events }
        }
        source.stop()
        // On the shared pool the first restart's commands never got their answer's continuation run.
        #expect(Self.restartNotices(events).last == .restarted(source: source.name, activity: "scanning", tries: 3), "\(events.notices)")
    }

    @Test("a loss cancels the schedule: the next reconnect starts it from its first delay")
    func lossRestartsTheSchedule() async throws {
        let server = try H4SocketServer()
        let spec = SourceSpec.unix(path: server.path)
        let source = LiveSource(spec: spec, backoff: Self.short, restartBackoff: ReconnectBackoff(initial: 0.05, maximum: 0.4))
        source.onReconnect { "refused" }
        let inbox = SourceInbox()
        try source.start(into: inbox)
        nonisolated(unsafe) let far = server
        let accepted = Mutex(0)
        let drops = DispatchSemaphore(value: 0)
        let thread = Thread {
            for round in 0..<3 {
                far.accept()
                accepted.withLock { $0 += 1 }
                if round < 2 { drops.wait(); far.dropClient() }
            }
        }
        thread.start()
        drops.signal()
        let first = await inbox.collect(from: source, seconds: 20) { Self.retryDelays($0).count >= 4 }
        #expect(Self.retryDelays(first).prefix(4) == [0.05, 0.1, 0.2, 0.4])
        drops.signal()
        func afterReconnect(_ events: [SourceEvent]) -> [SourceEvent] {
            Array(events.drop { $0 != .notice(.connected(source: spec.description)) })
        }
        let second = await inbox.collect(from: source, seconds: 20) { !Self.retryDelays(afterReconnect($0)).isEmpty }
        source.stop()
        #expect(Self.retryDelays(afterReconnect(second)).first == 0.05, "\(second.notices)")
    }

    @Test("ending the restarts waits for a running try, and nothing is said or tried after it")
    func endRestartsWaitsForTheRunningTry() async throws {
        let controller = try Controller(answers: [.commandDisallowed], holding: true)
        let source = LiveSource(spec: .unix(path: controller.server.path), backoff: Self.short, restartBackoff: Self.short)
        let finished = Mutex(false)
        let restart = Self.resetting(source)
        source.onReconnect {
            let failure = await restart()
            finished.withLock { $0 = true }
            return failure
        }
        let inbox = SourceInbox()
        try source.start(into: inbox)
        controller.serve(resets: 2)
        // The waits below on a thread of their own, as `collect` does: a blocked pool cannot stall them.
        try await withTaskExecutorPreference(ThreadTaskExecutor(name: "test waits")) {
            // The first try's reset is with the controller, unanswered.
            let deadline = ContinuousClock.now + .seconds(20)
            while controller.commands.withLock({ $0 }) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(controller.commands.withLock { $0 } == 1)
            async let ended: Void = source.endRestarts()
            // The answer comes once no try can start any more, so it cannot be said or retried.
            while !source.restartsHaveEnded && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            controller.release()
            await ended
        }
        #expect(finished.withLock { $0 }, "endRestarts returned before the running try ended")
        source.stop()
        controller.release()
        let events = await inbox.collect(from: source, seconds: 20)
        // The refusal came after the end: not said, and not tried again (one reset only).
        #expect(Self.restartNotices(events).isEmpty, "\(events.notices)")
        #expect(controller.commands.withLock { $0 } == 1)
    }

    @Test("the retry schedule: at once after a reconnect, then 1, 2, 4, 8, 16 s, then every 30 s")
    func schedule() {
        var retries = RestartRetries(backoff: LiveSource.restartRetries)
        #expect(retries.start(at: 0) == nil, "nothing before a reconnect")
        retries.reconnected(at: 100)
        var delays: [Double] = []
        var now = 100.0
        for _ in 0..<7 {
            guard retries.start(at: now) != nil else { break }
            #expect(retries.start(at: now) == nil, "one try at a time")
            let (current, delay) = retries.ended(connection: retries.connection, refused: true, at: now)
            #expect(current)
            delays.append(delay ?? -1)
            #expect(retries.start(at: now + (delay ?? 0) - 0.01) == nil, "not before it is due")
            now += delay ?? 0
        }
        #expect(delays == [1, 2, 4, 8, 16, 30, 30])
        let stale = retries.connection
        retries.lost()
        #expect(retries.start(at: now + 100) == nil, "a loss cancels the pending retry")
        retries.reconnected(at: now)
        #expect(retries.start(at: now) == 1)
        #expect(retries.ended(connection: stale, refused: true, at: now) == (false, nil))
    }
}
