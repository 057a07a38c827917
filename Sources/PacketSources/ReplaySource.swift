import Foundation
import HCI
import Synchronization

/// Replays a capture as a source: the same events a live source gives, paced by the capture's
/// own timestamps (`ReplayPacer`), at a speed, looping, cut to `--from/--to`, and driven by
/// `ReplayControl`. Packets keep their capture timestamps (time is data), shifted on each loop
/// so time never runs backwards for ranging.
///
/// Pull-based: the consumer's `next()` reads the file. A replay at `max` speed then runs exactly
/// as fast as the consumer takes packets, and nothing is buffered or dropped however slow the
/// consumer is (a pushing thread would have to either block or drop). Waiting for a packet's
/// time is a `Task.sleep`, so a paced replay holds no thread.
public final class ReplaySource: Sendable {
    public let name: String
    public let events: AsyncStream<SourceEvent>
    public let control: ReplayControl
    private let engine: ReplayEngine
    private let makeReader: @Sendable () throws -> any ReplayPacketReader

    public init(
        name: String, options: ReplayOptions = ReplayOptions(), control: ReplayControl = ReplayControl(),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        makeReader: @escaping @Sendable () throws -> any ReplayPacketReader
    ) {
        self.name = name
        self.control = control
        self.makeReader = makeReader
        let engine = ReplayEngine(name: name, options: options, control: control, makeReader: makeReader)
        self.engine = engine
        events = AsyncStream(unfolding: {
            while !Task.isCancelled {
                switch engine.step(wall: now()) {
                case .emit(let event): return event
                case .wait(let seconds): try? await Task.sleep(for: .seconds(seconds))
                case .end: return nil
                }
            }
            return nil
        })
    }

    /// Opens the file (errors are thrown here, before anything runs).
    public func start() throws {
        engine.begin(with: try makeReader())
    }

    /// Ends the replay at the next packet; `events` then finishes with an `.ended` status.
    public func stop() { engine.stop() }
}
