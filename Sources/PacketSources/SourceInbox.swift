import Dispatch
import Glibc
import Synchronization

/// The one hand-over point between a source's thread and its consumer (the monitor's owner loop,
/// a headless command): bounded, so a stalled consumer costs at most `capacity` events of memory.
///
/// A radio delivers with `.dropWhenFull`: packets beyond the room are dropped and counted (the
/// count is on the status line and in `scan`'s summary). A file or the simulator delivers with
/// `.waitForRoom` and waits, losing nothing. Notices always go through.
///
/// The consumer polls `wakeDescriptor`, which turns readable once `wakeThreshold` events wait (or
/// the source ended, or a producer waits for room), then calls `take()`. The monitor sets a high
/// threshold and takes at its own ticks, so a steady 1,000 packets a second wakes it five times a
/// second, not a thousand; `scan` sets 1 and prints each packet as it comes.
public final class SourceInbox: SourceSink, Sendable {
    /// What `take()` found.
    public struct Contents: Sendable {
        /// Batches in delivery order.
        public var batches: [SourceBatch]
        /// Packets dropped at this inbox since it was made.
        public var droppedPackets: Int
        /// The source finished and every batch it delivered is in this or an earlier `take()`.
        public var ended: Bool
    }

    private struct State {
        var batches: [SourceBatch] = []
        var waiting = 0
        var dropped = 0
        var finished = false
        var closed = false
        var producersWaiting = 0
        var signalled = false
    }

    public let capacity: Int
    public let wakeThreshold: Int
    private let state = Mutex(State())
    private let room = DispatchSemaphore(value: 0)
    private let now: @Sendable () -> Double
    private let wakePipe = WakePipe()

    /// - Parameters:
    ///   - capacity: events that may wait; 16,384 is 16 s of a busy venue's 1,000 adverts/s.
    ///   - wakeThreshold: events waiting before `wakeDescriptor` turns readable.
    ///   - now: the wall clock batches are stamped with (Unix seconds).
    public init(capacity: Int = 16_384, wakeThreshold: Int = 1, now: @escaping @Sendable () -> Double = SourceInbox.wallClock) {
        self.capacity = max(1, capacity)
        self.wakeThreshold = max(1, min(wakeThreshold, capacity))
        self.now = now
    }

    /// Unix seconds from the host's wall clock, never running back (`LiveClock.now`).
    public static let wallClock: @Sendable () -> Double = LiveClock.now

    /// Readable when the consumer should `take()`: poll it beside your other descriptors.
    public var wakeDescriptor: Int32 { wakePipe.readEnd }

    // MARK: - The source's side

    public func deliver(_ events: [SourceEvent], _ delivery: SourceDelivery) {
        guard !events.isEmpty else { return }
        let arrival = now()
        while true {
            let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
                if state.closed { return (true, false) }
                let room = capacity - state.waiting
                if events.count <= room || (delivery == .waitForRoom && state.waiting == 0) {
                    state.batches.append(SourceBatch(events: events, arrival: arrival))
                    state.waiting += events.count
                } else if delivery == .dropWhenFull {
                    var kept: [SourceEvent] = []
                    var free = room
                    for event in events {
                        if case .notice = event {
                            kept.append(event)
                        } else if free > 0 {
                            kept.append(event)
                            free -= 1
                        } else {
                            state.dropped += 1
                        }
                    }
                    if !kept.isEmpty {
                        state.batches.append(SourceBatch(events: kept, arrival: arrival))
                        state.waiting += kept.count
                    }
                } else {
                    state.producersWaiting += 1
                    return (false, Self.claimWake(&state))
                }
                return (true, state.waiting >= wakeThreshold && Self.claimWake(&state))
            }
            if wake { wakePipe.wake() }
            if accepted { return }
            room.wait()
        }
    }

    public func finish() {
        let wake = state.withLock { state -> Bool in
            state.finished = true
            return Self.claimWake(&state)
        }
        if wake { wakePipe.wake() }
    }

    // MARK: - The consumer's side

    /// Everything waiting, without blocking; wakes producers waiting for room.
    public func take() -> Contents {
        wakePipe.drain()
        let (contents, waiters) = state.withLock { state -> (Contents, Int) in
            let contents = Contents(batches: state.batches, droppedPackets: state.dropped, ended: state.finished)
            state.batches = []
            state.waiting = 0
            state.signalled = false
            defer { state.producersWaiting = 0 }
            return (contents, state.producersWaiting)
        }
        for _ in 0..<waiters { room.signal() }
        return contents
    }

    /// Waits until `wakeDescriptor` is readable or `timeout` seconds passed (nil: no limit).
    public func waitForEvents(timeout: Double? = nil) {
        var descriptor = pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout.map { Int32(max(0, min($0 * 1000, 3_600_000)).rounded(.up)) } ?? -1
        _ = poll(&descriptor, 1, milliseconds)
    }

    /// The consumer is gone: what is delivered from now on is discarded, and a source waiting for
    /// room goes on (so a replay thread never stays blocked on an inbox nobody reads).
    public func close() {
        let waiters = state.withLock { state -> Int in
            state.closed = true
            state.batches = []
            state.waiting = 0
            defer { state.producersWaiting = 0 }
            return state.producersWaiting
        }
        for _ in 0..<waiters { room.signal() }
    }

    /// Packets dropped so far.
    public var droppedPackets: Int { state.withLock { $0.dropped } }

    // MARK: - Wake-ups

    /// True when this caller should write the wake byte (one byte per take, not one per batch).
    private static func claimWake(_ state: inout State) -> Bool {
        guard !state.signalled else { return false }
        state.signalled = true
        return true
    }
}
