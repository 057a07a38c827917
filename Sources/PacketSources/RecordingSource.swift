import HCI
import Synchronization

/// Where a recording goes: `BTSnoopWriter` for files (each record written whole, so a killed
/// process leaves every record before the kill readable).
public protocol PacketRecorder: Sendable {
    mutating func write(_ packet: HCIPacket) throws
}

/// Wraps any source and writes every packet it delivers (both directions: the commands
/// beacontop sends are in the stream too) before passing it on. A write failure is reported
/// once as a status and recording stops; the source goes on.
public final class RecordingSource<Recorder: PacketRecorder>: PacketSource {
    public let inner: any PacketSource
    public let events: AsyncStream<SourceEvent>
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private let recorder: Mutex<Recorder?>
    private let forwarding = Mutex<Task<Void, Never>?>(nil)
    private let path: String

    public init(_ inner: any PacketSource, recorder: Recorder, path: String) {
        self.inner = inner
        self.recorder = Mutex(recorder)
        self.path = path
        (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self, bufferingPolicy: .bufferingNewest(100_000))
    }

    public var name: String { inner.name }

    /// Packets recorded so far are counted by the recorder; this says whether it still records.
    public var isRecording: Bool { recorder.withLock { $0 != nil } }

    public func start() throws {
        try inner.start()
        let task = Task { [self] in
            for await event in inner.events {
                if case .packet(let packet) = event { record(packet) }
                continuation.yield(event)
            }
            continuation.finish()
        }
        forwarding.withLock { $0 = task }
    }

    public func stop() { inner.stop() }

    private func record(_ packet: HCIPacket) {
        let failure: String? = recorder.withLock { recorder in
            guard recorder != nil else { return nil }
            do {
                try recorder!.write(packet)
                return nil
            } catch {
                recorder = nil
                return "\(error)"
            }
        }
        if let failure {
            continuation.yield(.notice(.lost(source: "recording \(path)", reason: "\(failure); recording stopped")))
        }
    }
}
