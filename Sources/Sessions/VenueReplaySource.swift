import Foundation
import PacketSources
import Synchronization

/// A venue recording replayed as a source: its broker messages go into the consumer's inbox as
/// `SourceEvent.brokerMessage` with their recorded receive times, paced by `ReplayPacer` at a
/// speed (`max`: as fast as the consumer takes them), so the venue view downstream decides
/// presence exactly as it did live (time is data). Delivered `.waitForRoom`: nothing is dropped.
public final class VenueReplaySource: PacketSource {
    public let name: String
    private let speed: ReplaySpeed
    private let stopRequested = Atomic<Bool>(false)
    private let reader: Mutex<VenueRecordingReader?>

    /// The recording's topic prefix (the view subscribes under it live; replayed, it decodes with it).
    public let prefix: String

    /// Opens the recording (a bad header is thrown here, before anything runs).
    public init(path: String, speed: ReplaySpeed) throws(VenueRecordingError) {
        name = path
        self.speed = speed
        let reader = try VenueRecordingReader(path: path)
        prefix = reader.prefix
        self.reader = Mutex(reader)
    }

    public func start(into sink: any SourceSink) throws {
        guard let reader = reader.withLock({ state -> VenueRecordingReader? in
            defer { state = nil }
            return state
        }) else { return }
        let thread = Thread { [self] in run(reader, into: sink) }
        thread.name = "beacontop venue replay"
        thread.start()
    }

    public func stop() { stopRequested.store(true, ordering: .relaxed) }

    private func run(_ reader: VenueRecordingReader, into sink: any SourceSink) {
        var reader = reader
        var pacer: ReplayPacer?
        var batch: [SourceEvent] = []
        var count = 0
        var reason = "end of replay after"
        func flush() {
            guard !batch.isEmpty else { return }
            sink.deliver(batch, .waitForRoom)
            batch.removeAll(keepingCapacity: true)
        }
        do {
            while !stopRequested.load(ordering: .relaxed), let message = try reader.next() {
                if pacer == nil { pacer = ReplayPacer(captureStart: message.receivedAt, wallStart: Date().timeIntervalSince1970, speed: speed) }
                let delay = pacer!.delay(until: message.receivedAt, atWall: Date().timeIntervalSince1970) ?? 0
                if delay > 0.01 {
                    flush()
                    Thread.sleep(forTimeInterval: min(delay, 0.25))
                }
                batch.append(.brokerMessage(message))
                count += 1
                if batch.count >= 1024 { flush() }
            }
            if stopRequested.load(ordering: .relaxed) { reason = "stopped after" }
        } catch {
            flush()
            sink.deliver([.notice(.warning(source: name, message: "\(error.problem) (line \(error.line)); replayed up to there"))], .waitForRoom)
        }
        flush()
        sink.deliver([.notice(.ended(source: name, reason: "\(reason) \(count) messages"))], .waitForRoom)
        sink.finish()
    }
}
