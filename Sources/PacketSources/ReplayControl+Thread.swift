extension ReplayControl {
    /// One step of a replay's state machine (`ReplayEngine`, a venue recording's
    /// `VenueReplayEngine`): hand out an event, wait (a packet not yet due; `.infinity` while
    /// paused, until a request), or end.
    public enum Step: Sendable, Equatable {
        case emit(SourceEvent)
        case wait(Double)
        case end
    }

    /// The replay thread's loop, the same for either engine: what `step` emits goes out in batches
    /// of up to `largestBatch`, delivered `.waitForRoom` (a replay at `max` speed runs exactly as
    /// fast as its consumer takes events, and nothing is dropped); a wait flushes the batch and
    /// sleeps on this control, so a request wakes it at once; the end flushes and finishes `sink`.
    public func drive(into sink: any SourceSink, largestBatch: Int, now: () -> Double, step: (_ wall: Double) -> Step) {
        var batch: [SourceEvent] = []
        func flush() {
            guard !batch.isEmpty else { return }
            sink.deliver(batch, .waitForRoom)
            batch.removeAll(keepingCapacity: true)
        }
        while true {
            switch step(now()) {
            case .emit(let event):
                batch.append(event)
                if batch.count >= largestBatch { flush() }
            case .wait(let seconds):
                flush()
                sleep(Swift.max(seconds, 0.001))
            case .end:
                flush()
                sink.finish()
                return
            }
        }
    }
}
