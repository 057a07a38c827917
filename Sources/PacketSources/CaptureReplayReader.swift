import Captures
import HCI
import Synchronization

/// A capture file as a replay reader: `CaptureReader` packets, copied out of its read buffer
/// (the replay hands them to another thread, and a slice kept alive would make the reader copy
/// its whole 256 KiB buffer on the next refill).
public struct CaptureReplayReader: ReplayPacketReader {
    private var reader: CaptureReader
    /// Records the capture's snap length cut: the first is thrown (a warning), the rest counted
    /// for the end's line, so a capture made with a short snap length is not a line per record.
    private let cuts: SnapLengthCuts

    /// `cuts` is shared by the readers of one replay (`SourceOpening` passes one to each reopening).
    public init(path: String, cuts: SnapLengthCuts = SnapLengthCuts()) throws(CaptureError) {
        reader = try CaptureReader(path: path)
        self.cuts = cuts
    }

    private init(reader: CaptureReader, cuts: SnapLengthCuts) {
        self.reader = reader
        self.cuts = cuts
    }

    public var resumePoint: CaptureResumePoint? { reader.resumePoint }

    public func resumed(at point: CaptureResumePoint) throws -> (any ReplayPacketReader)? {
        CaptureReplayReader(reader: try CaptureReader(path: reader.path, resumingAt: point), cuts: cuts)
    }

    public mutating func nextPacket() throws -> HCIPacket? {
        while true {
            let next: HCIPacket?
            do {
                next = try reader.next()
            } catch {
                guard case .cutBySnapLength(_, let offset, _, _) = error else { throw error }
                if cuts.count(offset: offset) == 1 { throw error }
                continue
            }
            guard var packet = next else { return nil }
            packet.payload = Array(packet.payload)[...]
            return packet
        }
    }

    public var endNote: String? {
        let notes = [
            cuts.total > 0 ? "\(cuts.total) records cut by the capture's snap length skipped" : nil,
            reader.truncation.map { "\($0); replayed up to there" },
        ].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
    }
}

/// The records a replay's snap length cut, each counted once: a seek back or a new `--loop` pass
/// opens the file again, and the count started over with each reader (a seek back from a resume
/// point past the cut said none). Records are read in file order, so one at or before the
/// furthest offset counted was counted already.
public final class SnapLengthCuts: Sendable {
    private let state = Mutex((total: 0, furthest: -1))

    public init() {}

    public var total: Int { state.withLock { $0.total } }

    /// Counts the cut record at `offset` unless it was counted before; the total after it, or 0.
    func count(offset: Int) -> Int {
        state.withLock { state in
            guard offset > state.furthest else { return 0 }
            state.furthest = offset
            state.total += 1
            return state.total
        }
    }
}

extension CaptureError: RecoverableReplayError {
    public var detail: String {
        let path: String
        switch self {
        case .cannotOpen(let file, _), .readFailed(let file, _, _), .unknownFormat(let file, _), .unsupported(let file, _),
             .corrupt(let file, _, _, _), .writeFailed(let file, _), .outputExists(let file, _), .malformedRecord(let file, _, _),
             .cutBySnapLength(let file, _, _, _):
            path = file
        }
        let text = description
        return text.hasPrefix(path + ": ") ? String(text.dropFirst(path.count + 2)) : text
    }
}
