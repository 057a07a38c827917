import HCI
import PacketSources

extension SourceInbox {
    /// Collects events as they arrive, a whole batch at a time, until the source finishes or
    /// `done` says so after a batch; after `seconds` a watchdog stops `source`, so a bug cannot hang
    /// a test. Waits with `Task.sleep`, holding no thread of the test pool, and runs on a thread of
    /// its own (a task executor preference), so tests that block the cooperative pool cannot stall
    /// it halfway: it did, for minutes in a full run, and the watchdog then stopped sources that
    /// had been delivering all along.
    public func collect(
        from source: any PacketSource, seconds: Double = 10, until done: ([SourceEvent]) -> Bool = { _ in false }
    ) async -> [SourceEvent] {
        await withTaskExecutorPreference(ThreadTaskExecutor(name: "test collect")) {
            let deadline = ContinuousClock.now + .seconds(seconds)
            var events: [SourceEvent] = []
            var stopped = false
            while true {
                let contents = take()
                for batch in contents.batches { events += batch.events }
                if contents.ended || (!contents.batches.isEmpty && done(events)) { return events }
                if !stopped && ContinuousClock.now > deadline {
                    source.stop()
                    stopped = true
                }
                try? await Task.sleep(for: .milliseconds(2))
            }
        }
    }
}

extension PacketSource {
    /// Starts the source into a fresh inbox and collects until it finishes (see `collect`).
    public func collectAll(seconds: Double = 10) async throws -> [SourceEvent] {
        let inbox = SourceInbox()
        try start(into: inbox)
        return await inbox.collect(from: self, seconds: seconds)
    }
}

extension [SourceEvent] {
    public var packets: [HCIPacket] {
        compactMap { if case .packet(let packet) = $0 { packet } else { nil } }
    }

    public var notices: [SourceNotice] {
        compactMap { if case .notice(let notice) = $0 { notice } else { nil } }
    }
}
