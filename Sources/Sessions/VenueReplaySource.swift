import Foundation
import PacketSources
import Synchronization

/// A venue recording replayed as a source: its broker messages go into the consumer's inbox as
/// `SourceEvent.brokerMessage` with their recorded receive times, paced, cut and driven by the
/// same `ReplayOptions` and `ReplayControl` as a capture replay (`VenueReplayEngine` says how a
/// seek differs), so the venue view downstream decides presence exactly as it did live (time is
/// data). Delivered `.waitForRoom`: nothing is dropped.
public final class VenueReplaySource: PacketSource {
    public let name: String
    public let control: ReplayControl
    private let options: ReplayOptions
    private let now: @Sendable () -> Double
    private let stopRequested = Atomic<Bool>(false)
    private let reader: Mutex<VenueRecordingReader?>

    /// The recording's topic prefix (the view subscribes under it live; replayed, it decodes with it).
    public let prefix: String

    /// Most events in one batch at full speed (`ReplaySource.largestBatch`).
    static let largestBatch = 1024

    /// Opens the recording (a bad header is thrown here, before anything runs).
    public init(
        path: String, options: ReplayOptions, control: ReplayControl = ReplayControl(),
        now: @escaping @Sendable () -> Double = SourceInbox.wallClock
    ) throws(VenueRecordingError) {
        name = path
        self.options = options
        self.control = control
        self.now = now
        let reader = try VenueRecordingReader(path: path)
        prefix = reader.prefix
        self.reader = Mutex(reader)
    }

    public func start(into sink: any SourceSink) throws {
        guard let reader = reader.withLock({ state -> VenueRecordingReader? in
            defer { state = nil }
            return state
        }) else { return }
        let path = name
        let engine = VenueReplayEngine(name: name, options: options, control: control, reader: reader) { resume throws(VenueRecordingError) in
            guard let resume else { return try VenueRecordingReader(path: path) }
            return try VenueRecordingReader(path: path, resumingAt: resume.offset, line: resume.line)
        }
        let thread = Thread { [self] in run(engine, into: sink) }
        thread.name = "beacontop venue replay"
        thread.start()
    }

    /// Ends the replay at the next message (a paused one too); an `.ended` notice follows.
    public func stop() {
        stopRequested.store(true, ordering: .relaxed)
        control.wakeReplay()
    }

    private func run(_ engine: VenueReplayEngine, into sink: any SourceSink) {
        var engine = engine
        control.drive(into: sink, largestBatch: Self.largestBatch, now: now) { wall in
            if stopRequested.load(ordering: .relaxed) { engine.stop() }
            return engine.step(wall: wall)
        }
    }
}
