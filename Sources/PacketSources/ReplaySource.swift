import Foundation
import HCI
import Synchronization

/// Replays a capture as a source: the same events a live source gives, paced by the capture's
/// own timestamps (`ReplayPacer`), at a speed, looping, cut to `--from/--to`, and driven by
/// `ReplayControl`. Packets keep their capture timestamps (time is data), shifted on each loop
/// so time never runs backwards for ranging.
///
/// A thread of its own steps the `ReplayEngine` and delivers `.waitForRoom`: a replay at `max`
/// speed runs exactly as fast as its consumer takes packets, and nothing is dropped however slow
/// the consumer is. Packets due within `ReplayEngine.batchWindow` go out in one batch.
public final class ReplaySource: PacketSource, Sendable {
    public let name: String
    public let control: ReplayControl
    private let options: ReplayOptions
    private let now: @Sendable () -> Double
    private let makeReader: @Sendable () throws -> any ReplayPacketReader
    private let stopRequested = Atomic<Bool>(false)

    /// Most events in one batch at full speed: large enough that handing over costs nothing per
    /// packet, small enough that the consumer starts ranging at once.
    static let largestBatch = 1024

    public init(
        name: String, options: ReplayOptions = ReplayOptions(), control: ReplayControl = ReplayControl(),
        now: @escaping @Sendable () -> Double = SourceInbox.wallClock,
        makeReader: @escaping @Sendable () throws -> any ReplayPacketReader
    ) {
        self.name = name
        self.control = control
        self.options = options
        self.now = now
        self.makeReader = makeReader
    }

    /// Opens the file (errors are thrown here, before anything runs) and starts the replay thread.
    public func start(into sink: any SourceSink) throws {
        let engine = ReplayEngine(name: name, options: options, control: control, reader: try makeReader(), makeReader: makeReader)
        let thread = Thread { [self] in run(engine, into: sink) }
        thread.name = "beacontop replay"
        thread.start()
    }

    /// Ends the replay at the next packet; an `.ended` notice follows, then the sink finishes.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        control.wakeReplay()
    }

    private func run(_ engine: ReplayEngine, into sink: any SourceSink) {
        var engine = engine
        control.drive(into: sink, largestBatch: Self.largestBatch, now: now) { wall in
            if stopRequested.load(ordering: .relaxed) { engine.stop() }
            return engine.step(wall: wall)
        }
    }
}
