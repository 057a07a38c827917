import Dispatch
import Foundation
import Synchronization

/// Why a run ended; every one of them leads through the same clean-up (scanning or advertising
/// disabled, recording closed, terminal restored).
public enum StopReason: Sendable, Equatable, CustomStringConvertible {
    case signal(Int32)
    case durationElapsed
    case sourceEnded
    case requested

    public var description: String {
        switch self {
        case .signal(let number): number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
        case .durationElapsed: "duration elapsed"
        case .sourceEnded: "source ended"
        case .requested: "quit"
        }
    }
}

/// The first of several stop triggers (SIGINT, SIGTERM, a duration, the source ending, a key)
/// wins; `wait()` returns it. SIGINT and SIGTERM are caught with dispatch sources so the
/// process does not die before it tells the controller to stop.
public final class StopSignal: Sendable {
    private let state = Mutex<(reason: StopReason?, waiters: [CheckedContinuation<StopReason, Never>])>((nil, []))
    private let sources = Mutex(SignalSources(list: []))

    public init() {}

    /// Catches SIGINT and SIGTERM from now on.
    public func catchTerminationSignals() {
        var installed: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in trigger(.signal(number)) }
            source.resume()
            installed.append(source)
        }
        let held = SignalSources(list: installed)
        sources.withLock { $0 = held }
    }

    /// Triggers `.durationElapsed` after `seconds`.
    public func trigger(after seconds: Double) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in trigger(.durationElapsed) }
    }

    public func trigger(_ reason: StopReason) {
        let waiters = state.withLock { state -> [CheckedContinuation<StopReason, Never>] in
            guard state.reason == nil else { return [] }
            state.reason = reason
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: reason) }
    }

    public var reason: StopReason? { state.withLock { $0.reason } }

    public func wait() async -> StopReason {
        await withCheckedContinuation { waiter in
            let reason = state.withLock { state -> StopReason? in
                if let reason = state.reason { return reason }
                state.waiters.append(waiter)
                return nil
            }
            if let reason { waiter.resume(returning: reason) }
        }
    }
}

/// Keeps the signal sources alive; they are only held, never touched again after `resume()`,
/// which is why sharing them across threads is safe.
private struct SignalSources: @unchecked Sendable {
    var list: [any DispatchSourceSignal]
}
