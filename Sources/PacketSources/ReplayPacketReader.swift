import Captures
import HCI

/// Something that yields a capture's packets in order: `CaptureReplayReader` for files,
/// `AdvertisementScriptReader` for hand-written scripts, an array in tests.
public protocol ReplayPacketReader: Sendable {
    /// The next packet; nil at the end. Throws for a bad record (see `RecoverableReplayError`).
    mutating func nextPacket() throws -> HCIPacket?
    /// Why the reader stopped, once `nextPacket()` returned nil ("torn final record at byte ...").
    var endNote: String? { get }
    /// Where the next packet starts, for `resumed(at:)`; nil when this reader cannot be resumed.
    var resumePoint: CaptureResumePoint? { get }
    /// The same file opened again at `point` (a seek back starts near its target); nil when this
    /// reader cannot be resumed, and the replay reads from the start.
    func resumed(at point: CaptureResumePoint) throws -> (any ReplayPacketReader)?
}

extension ReplayPacketReader {
    public var resumePoint: CaptureResumePoint? { nil }
    public func resumed(at point: CaptureResumePoint) throws -> (any ReplayPacketReader)? { nil }
}

/// Errors a reader may throw that do not end the file: one bad record, skipped.
public protocol RecoverableReplayError: Error {
    var isRecoverable: Bool { get }
    /// What went wrong without the file's name: the replay's notices name their source, and the
    /// error's own description names the file too (`FILE: FILE:4: ...`).
    var detail: String { get }
}
