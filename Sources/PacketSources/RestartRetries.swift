/// When a live source runs its restart action (the scan or advertising a reconnected controller
/// forgot): at once after a reconnect, then again after each refusal on the retry back-off
/// (1, 2, 4, 8, 16 s, then every 30 s) while the transport stays open. Pure: the reading thread
/// gives it the time (monotonic seconds) and the outcomes.
struct RestartRetries: Sendable {
    let backoff: ReconnectBackoff
    /// Tries since the last reconnect (the one running included).
    private(set) var tries = 0
    /// When the next try is due; nil when none is (no reconnect yet, lost, or restarted).
    private(set) var due: Double?
    /// A try is running: no other starts until it has ended, even after a loss and a reconnect
    /// (its commands fail with the old transport, and its outcome is then ignored).
    private(set) var running = false
    /// Counts reconnects and losses, so the outcome of a try made on a transport since gone is
    /// told apart (and not reported: the loss is).
    private(set) var connection = 0

    init(backoff: ReconnectBackoff) {
        self.backoff = backoff
    }

    /// The transport is back: the schedule starts again, the first try due at once.
    mutating func reconnected(at now: Double) {
        connection += 1
        tries = 0
        due = now
    }

    /// The transport is gone: the pending retry is cancelled.
    mutating func lost() {
        connection += 1
        tries = 0
        due = nil
    }

    /// Starts the try that is due at `now`, if one is and none runs: returns its number.
    mutating func start(at now: Double) -> Int? {
        guard !running, let due, now >= due else { return nil }
        self.due = nil
        running = true
        tries += 1
        return tries
    }

    /// A try on connection `connection` ended; `refused` says whether the controller refused it.
    /// Returns the delay before the next try when one is scheduled, and whether the outcome still
    /// counts (it was made on the current connection).
    mutating func ended(connection: Int, refused: Bool, at now: Double) -> (current: Bool, retryIn: Double?) {
        running = false
        guard connection == self.connection else { return (false, nil) }
        guard refused else { return (true, nil) }
        let delay = backoff.delay(attempt: tries)
        due = now + delay
        return (true, delay)
    }
}
