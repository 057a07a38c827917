import Dispatch
import Foundation
import Synchronization

/// The transport controls of a replay, driven from another thread (the monitor's keys):
/// pause, resume, step one packet while paused, change speed, seek. The replay thread (a capture's
/// `ReplayEngine`, a venue recording's `VenueReplayEngine`) applies them between packets or
/// messages; `position` says where it is. Each request wakes the replay thread, so a paused
/// replay, or one waiting for a packet far ahead, sleeps until it is due or asked (no polling).
public final class ReplayControl: Sendable {
    struct Requests: Sendable, Equatable {
        var paused = false
        var steps = 0
        var speed: ReplaySpeed?
        /// Seconds to seek by, summed over presses not yet applied.
        var seek = 0.0
    }

    private let requests = Mutex(Requests())
    private let progress = Mutex<(position: Double, packets: Int)>((0, 0))
    private let measuredLength = Mutex<Double?>(nil)
    private let wakeup = DispatchSemaphore(value: 0)
    private let checkpoints = Atomic<Bool>(false)

    public init(paused: Bool = false) {
        requests.withLock { $0.paused = paused }
    }

    public func pause() { request { $0.paused = true } }
    public func resume() { request { $0.paused = false } }
    public func togglePause() { request { $0.paused.toggle() } }
    public var isPaused: Bool { requests.withLock { $0.paused } }

    /// While paused, delivers the next packet (and no more).
    public func step() { request { $0.steps += 1 } }

    public func setSpeed(_ speed: ReplaySpeed) { request { $0.speed = speed } }

    /// Moves the replay by `seconds` of capture time (negative: back), clamped to the capture's start.
    /// Time stays monotonic for ranging: after a seek back, later packets are shifted as a loop shifts them.
    public func seek(by seconds: Double) {
        guard seconds.isFinite else { return }
        request { $0.seek += seconds }
    }

    private func request(_ change: (inout Requests) -> Void) {
        requests.withLock { change(&$0) }
        wakeup.signal()
    }

    /// The consumer keeps checkpoints of what it builds (`SourceNotice.checkpoint`: the monitor's
    /// venue view), so a venue recording's seek back may resume from one; nobody else is sent them.
    public func acceptCheckpoints() { checkpoints.store(true, ordering: .relaxed) }
    public var acceptsCheckpoints: Bool { checkpoints.load(ordering: .relaxed) }

    /// Wakes the replay thread now (it was stopped).
    public func wakeReplay() { wakeup.signal() }

    /// The replay thread's sleep: until `seconds` have passed or a request came; an infinite
    /// `seconds` (paused) sleeps until a request or `wakeReplay`, with no timer at all.
    public func sleep(_ seconds: Double) {
        guard seconds.isFinite else { return wakeup.wait() }
        _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(Swift.min(seconds, 1e6) * 1e9)))
    }

    /// Seconds into the capture the replay has reached (the last packet delivered, a seek's target,
    /// or on into a silence at the replay's pace), and how many packets were delivered.
    public var position: (seconds: Double, packets: Int) {
        progress.withLock { ($0.position, $0.packets) }
    }

    /// Seconds from the recording's first packet (message) to its last, once measured (on a thread
    /// of its own, `measureLength`); nil until then, or when it cannot be.
    public var length: Double? { measuredLength.withLock { $0 } }

    /// Measures the recording's length on a background thread and keeps it for `length`: the
    /// replay starts at once, and the status line shows the length when it is known.
    public func measureLength(_ measure: @escaping @Sendable () -> Double?) {
        let thread = Thread { [self] in
            let length = measure()
            measuredLength.withLock { $0 = length }
        }
        thread.name = "beacontop replay length"
        thread.qualityOfService = .utility
        thread.start()
    }

    // The replay thread's side.

    /// Takes the pending speed change, if any.
    public func takeSpeed() -> ReplaySpeed? {
        requests.withLock { state in
            defer { state.speed = nil }
            return state.speed
        }
    }

    /// Takes the pending seek, if any.
    public func takeSeek() -> Double? {
        requests.withLock { state in
            defer { state.seek = 0 }
            return state.seek == 0 ? nil : state.seek
        }
    }

    /// Takes one step if one is pending.
    public func takeStep() -> Bool {
        requests.withLock { state in
            guard state.steps > 0 else { return false }
            state.steps -= 1
            return true
        }
    }

    /// A replay held at its end, woken by a request that is no seek back: a seek forward (`asked`)
    /// or steps are taken and said once (`.nothingFurther`), else it waits on with no timer.
    public func forwardAtHeldEnd(asked: Bool, source: String) -> Step {
        var stepped = false
        while takeStep() { stepped = true }
        return asked || stepped ? .emit(.notice(.nothingFurther(source: source))) : .wait(.infinity)
    }

    public func delivered(position: Double) {
        progress.withLock { $0 = (position, $0.packets + 1) }
    }

    /// A seek reached `position` (seconds into the recording) between two messages.
    public func moved(to position: Double) {
        progress.withLock { $0.position = position }
    }
}
