import Captures
import HCI

/// A capture file as a replay reader: `CaptureReader` packets, copied out of its read buffer
/// (the replay hands them to another thread, and a slice kept alive would make the reader copy
/// its whole 256 KiB buffer on the next refill).
public struct CaptureReplayReader: ReplayPacketReader {
    private var reader: CaptureReader
    /// Records the capture's snap length cut: the first is thrown (a warning), the rest counted
    /// for the end's line, so a capture made with a short snap length is not a line per record.
    private var cutRecords = 0

    public init(path: String) throws(CaptureError) {
        reader = try CaptureReader(path: path)
    }

    private init(reader: CaptureReader) {
        self.reader = reader
    }

    public var resumePoint: CaptureResumePoint? { reader.resumePoint }

    public func resumed(at point: CaptureResumePoint) throws -> (any ReplayPacketReader)? {
        CaptureReplayReader(reader: try CaptureReader(path: reader.path, resumingAt: point))
    }

    public mutating func nextPacket() throws -> HCIPacket? {
        while true {
            let next: HCIPacket?
            do {
                next = try reader.next()
            } catch {
                guard case .cutBySnapLength = error else { throw error }
                cutRecords += 1
                if cutRecords == 1 { throw error }
                continue
            }
            guard var packet = next else { return nil }
            packet.payload = Array(packet.payload)[...]
            return packet
        }
    }

    public var endNote: String? {
        let notes = [
            cutRecords > 0 ? "\(cutRecords) records cut by the capture's snap length skipped" : nil,
            reader.truncation.map { "\($0); replayed up to there" },
        ].compactMap { $0 }
        return notes.isEmpty ? nil : notes.joined(separator: "; ")
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
