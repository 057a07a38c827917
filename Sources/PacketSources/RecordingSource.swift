import Captures
import HCI
import Synchronization

/// Where a recording goes: `BTSnoopWriter` for files (each record written whole, so a killed
/// process leaves every record before the kill readable).
public protocol PacketRecorder: Sendable {
    mutating func write(_ packet: HCIPacket) throws
    /// A venue's broker message (a venue recording; a packet capture has no place for one).
    mutating func write(_ message: BrokerMessage) throws
}

extension PacketRecorder {
    public mutating func write(_ message: BrokerMessage) throws {}
}

extension BTSnoopWriter: PacketRecorder {}

/// The one way beacontop records: wraps any source and, while recording, writes every packet it
/// delivers (both directions: the commands beacontop sends are in the stream too) before passing
/// it on. Recording starts and stops at any time (`--record` before the source starts, `r` in the
/// monitor); each start, stop and failure is a notice in the stream. A write failure stops the
/// recording, never the source.
public final class RecordingSource: PacketSource, Sendable {
    public let inner: any PacketSource
    private let makeRecorder: @Sendable (String) throws -> any PacketRecorder
    private let state = Mutex(State())

    private struct State {
        var recorder: (any PacketRecorder)?
        var path: String?
        /// Whether the recording created its file (else it took an existing empty one).
        var created = false
        var packets = 0
        var sink: (any SourceSink)?
        /// Notices from before the source started, delivered when it does.
        var pending: [SourceEvent] = []
    }

    /// `makeRecorder` opens the recording for a path (a btsnoop file by default).
    public init(_ inner: any PacketSource, makeRecorder: @escaping @Sendable (String) throws -> any PacketRecorder = { try BTSnoopWriter(path: $0) }) {
        self.inner = inner
        self.makeRecorder = makeRecorder
    }

    public var name: String { inner.name }

    /// The file being recorded to, nil when not recording.
    public var recordingPath: String? { state.withLock { $0.path } }

    public func start(into sink: any SourceSink) throws {
        let pending = state.withLock { state -> [SourceEvent] in
            state.sink = sink
            defer { state.pending = [] }
            return state.pending
        }
        if !pending.isEmpty { sink.deliver(pending, .dropWhenFull) }
        try inner.start(into: Tap(source: self, downstream: sink))
    }

    public func stop() { inner.stop() }

    /// Starts writing every packet to `path` (replacing a recording in progress). Throws when the
    /// file cannot be created; nothing changes then.
    public func startRecording(to path: String) throws {
        let created = !RecordingFileCreation.exists(path: path)
        let recorder = try makeRecorder(path)
        note(state.withLock { state -> SourceEvent in
            state.recorder = recorder
            state.path = path
            state.created = created
            state.packets = 0
            return .notice(.recordingStarted(path: path))
        })
    }

    /// Stops recording; returns the file and how many packets it got, nil when not recording.
    @discardableResult
    public func stopRecording() -> (path: String, packets: Int)? {
        let stopped = state.withLock { state -> (path: String, packets: Int)? in
            guard let path = state.path else { return nil }
            defer {
                state.recorder = nil
                state.path = nil
            }
            return (path, state.packets)
        }
        if let stopped { note(.notice(.recordingStopped(path: stopped.path, packets: stopped.packets))) }
        return stopped
    }

    /// Stops recording and removes what it wrote (`RecordingFileCreation.discard`): for a run that
    /// fails at start-up (the source, the controller, the broker or the catalog refused), whose
    /// recording holds nothing the user asked for. Said nowhere: the run's error is the news.
    public func discardRecording() {
        let discarded = state.withLock { state -> (path: String, created: Bool)? in
            guard let path = state.path else { return nil }
            state.recorder = nil
            state.path = nil
            return (path, state.created)
        }
        if let discarded { RecordingFileCreation.discard(path: discarded.path, created: discarded.created) }
    }

    private func note(_ event: SourceEvent) {
        let sink = state.withLock { state -> (any SourceSink)? in
            if state.sink == nil { state.pending.append(event) }
            return state.sink
        }
        sink?.deliver([event], .dropWhenFull)
    }

    /// Writes the packets of one batch; returns a failure notice to pass on when writing failed.
    fileprivate func record(_ events: [SourceEvent]) -> SourceEvent? {
        state.withLock { state -> SourceEvent? in
            guard state.recorder != nil, let path = state.path else { return nil }
            for event in events {
                do {
                    switch event {
                    case .packet(let packet): try state.recorder!.write(packet)
                    case .brokerMessage(let message): try state.recorder!.write(message)
                    case .sighting, .notice: continue
                    }
                    state.packets += 1
                } catch {
                    state.recorder = nil
                    state.path = nil
                    return .notice(.recordingFailed(path: path, reason: "\(error)"))
                }
            }
            return nil
        }
    }

    /// The inner source's sink: records, then passes everything on.
    private struct Tap: SourceSink {
        let source: RecordingSource
        let downstream: any SourceSink

        func deliver(_ events: [SourceEvent], _ delivery: SourceDelivery) {
            if let failure = source.record(events) {
                downstream.deliver(events + [failure], delivery)
            } else {
                downstream.deliver(events, delivery)
            }
        }

        func finish() { downstream.finish() }
    }
}
