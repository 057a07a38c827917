import Dispatch
import Foundation
import Synchronization

/// Why a run ended; every one of them leads through the same clean-up (scanning or advertising
/// disabled, recording closed, terminal restored; docs/exit-paths.md).
public enum StopReason: Sendable, Equatable, CustomStringConvertible {
    case signal(Int32)
    case durationElapsed
    case sourceEnded
    case requested
    /// Standard output was closed under us (`beacontop scan hci0 | head`): EPIPE on a write.
    case outputClosed
    /// A write to standard output failed otherwise (a full disk): lines were lost, exit status 1.
    case outputFailed

    public var description: String {
        switch self {
        case .signal(let number): StopSignal.name(of: number)
        case .durationElapsed: "duration elapsed"
        case .sourceEnded: "source ended"
        case .requested: "quit"
        case .outputClosed: "standard output closed"
        case .outputFailed: "standard output failed"
        }
    }
}

/// The first of several stop triggers (a signal, a duration, the source ending, a key, standard
/// output closing) wins; `wait()` returns it. The signals that end a process by default from a
/// terminal or a supervisor are caught with dispatch sources, so the process does not die before it
/// tells the controller to stop: SIGINT (Ctrl-C), SIGTERM (kill, systemd), SIGHUP (the terminal or
/// SSH session closed), SIGQUIT (Ctrl-\). SIGPIPE is ignored instead: a closed pipe shows up as
/// EPIPE at the write, which stops the run like the others.
public final class StopSignal: Sendable {
    /// The signals `catchTerminationSignals` turns into a stop.
    public static let caught: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    private let state = Mutex<(reason: StopReason?, waiters: [CheckedContinuation<StopReason, Never>])>((nil, []))
    private let sources = Mutex(SignalSources(list: []))

    public init() {}

    public static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        case SIGPIPE: "SIGPIPE"
        default: "signal \(number)"
        }
    }

    /// Catches SIGINT, SIGTERM, SIGHUP and SIGQUIT from now on, and ignores SIGPIPE.
    public func catchTerminationSignals() {
        signal(SIGPIPE, SIG_IGN)
        var installed: [any DispatchSourceSignal] = []
        for number in Self.caught {
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
