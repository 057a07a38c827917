import Captures

/// What an opened source spec gives a command or the monitor: the packets to consume, the live
/// controller to command (nil for replays and monitor sockets: they take no commands), and the
/// replay's transport controls (nil for live sources).
public struct SourceOpening: Sendable {
    public var packets: any PacketSource
    public var controller: LiveSource?
    public var replayControl: ReplayControl?

    /// Builds the source a spec names: a live transport, a capture replay or an advertisement
    /// script (chosen by the file's first bytes), wrapped in a btsnoop recording when `record`
    /// is given. Nothing is opened yet: call `packets.start()`.
    public init(spec: SourceSpec, replay: ReplayOptions = ReplayOptions(), record: String? = nil) throws(CaptureError) {
        var base: any PacketSource
        if case .file(let path) = spec {
            let script = AdvertisementScriptReader.looksLikeScript(path: path)
            let source = ReplaySource(name: path, options: replay) {
                script ? try AdvertisementScriptReader(path: path) as any ReplayPacketReader : try CaptureReplayReader(path: path)
            }
            base = source
            replayControl = source.control
        } else {
            let source = LiveSource(spec: spec)
            base = source
            controller = spec.acceptsCommands ? source : nil
        }
        if let record {
            base = RecordingSource(base, recorder: try BTSnoopWriter(path: record), path: record)
        }
        packets = base
    }
}
