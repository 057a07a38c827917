/// News about a source itself, in its event stream beside the packets: shown on the status line
/// and in the event log, printed by the headless commands. A lost transport is an event, not a crash.
public enum SourceNotice: Sendable, Equatable, CustomStringConvertible {
    /// The transport is open (first time or after a reconnect).
    case connected(source: String)
    /// Opening it powered the adapter on: it was down (no bluetoothd powers adapters on).
    case poweredOn(source: String)
    /// The transport failed; a live source then tries to reconnect.
    case lost(source: String, reason: String)
    /// Waiting `delay` seconds before reconnect attempt `attempt`; `reason` is why the transport
    /// is down: how it was lost (attempt 1), or why the previous attempt failed.
    case reconnecting(source: String, attempt: Int, delay: Double, reason: String)
    /// Bytes that were not H4 were skipped (stream offset and count).
    case framingError(source: String, detail: String)
    /// A replay reached its end, or was stopped.
    case ended(source: String, reason: String)
    /// A replay cannot read past `detail` (a corrupt header field): the `.ended` that follows ends
    /// it, and a headless `scan` exits 2 for it, as `replay` and `decode` do (it exited 0).
    case unreadable(source: String, detail: String)
    /// A replay held at its end (`ReplayOptions.holdAtEnd`) plays again: a seek back took it
    /// there, and the status goes back from `replay finished` to playing (or paused).
    case resumedFromEnd(source: String)
    /// A replay held at its end was asked to go forward (`→`, or `.` while paused) before the
    /// monitor had taken its end notice (the monitor answers the later presses itself): nothing
    /// comes after the end, said once rather than dropped without a word.
    case nothingFurther(source: String)
    /// A replay ended with nothing replayed because `--from` lies past the file's last packet
    /// (message), `last` seconds after its first: the end of the replay, and a usage error.
    case pastTheEnd(source: String, from: Double, last: Double)
    /// A replay went back (a seek back on a venue recording): the messages that follow are the
    /// recording again, unpaced up to `target` (their time the seek aimed at), so a consumer that
    /// builds state from them (the venue view) starts it afresh here: from the checkpoint
    /// `resumeFrom` when there is one (the messages follow from its position), else from the start.
    /// Either way every checkpoint after `resumeFrom` (all of them without one) is dropped.
    case rewound(source: String, target: Double, resumeFrom: ReplayCheckpoint?)
    /// A capture's replay landed where a seek aimed (the monitor's ← and →): the packets that follow
    /// are `position` seconds into the capture, delivered from capture time `capture` on. A seek
    /// back shifts their times (ranging time never runs back), so a consumer that turns capture
    /// time into a position (the event log's) starts counting again here. A `--loop` replay says
    /// it too where each pass starts again (its times shifted on by the passes before).
    case sought(source: String, position: Double, capture: Double)
    /// A venue recording's replay passed a checkpoint (`ReplayControl.acceptCheckpoints`): the
    /// consumer keeps what it built from the messages so far as checkpoint `id` (the next message
    /// is the first after it) and drops its checkpoints `dropped` (the replay no longer resumes from them).
    case checkpoint(source: String, id: Int, dropped: [Int])
    /// Something went wrong beside the packets.
    case warning(source: String, message: String)
    /// The controller is back after a loss but refused what beacontop restarts on it ("scanning not
    /// restarted (retrying in 2 s): LE Set Extended Scan Enable failed: ..."): connected, yet
    /// hearing nothing. The source tries again in `retryIn` seconds (nil: it will not).
    case restartFailed(source: String, message: String, retryIn: Double?)
    /// A retry after a refused restart worked: `activity` ("scanning", "advertising") runs again,
    /// after `tries` tries since the reconnect.
    case restarted(source: String, activity: String, tries: Int)
    /// Every packet is being written to `path` (`--record`, `r`).
    case recordingStarted(path: String)
    /// Recording ended on request after `packets` packets.
    case recordingStopped(path: String, packets: Int)
    /// Writing failed: recording stopped, the source goes on.
    case recordingFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .connected(let source): "\(source): connected"
        case .poweredOn(let source): "\(source): the adapter was down; beacontop brought it up (HCIDEVUP, with CAP_NET_ADMIN)"
        case .lost(let source, let reason): "\(source): lost (\(reason))"
        case .reconnecting(let source, let attempt, let delay, let reason):
            "\(source): \(reason); reconnecting in \(delay) s (attempt \(attempt))"
        case .framingError(let source, let detail): "\(source): \(detail)"
        case .ended(let source, let reason): "\(source): \(reason)"
        case .unreadable(let source, let detail): "\(source): cannot read on: \(detail)"
        case .resumedFromEnd(let source): "\(source): seek back from the end: playing again"
        case .nothingFurther(let source): "\(source): the replay is at its end, nothing further (← goes back)"
        case .pastTheEnd(let source, let from, let last):
            // --from as given: rounded down to a tenth like the span, `--from 210.77` on a capture
            // of 210.768 s read "--from 210.7 s is past the end: the file spans 0-210.7 s".
            "\(source): --from \(Self.exactSeconds(from)) s is past the end: the file spans 0-\(Self.seconds(last)) s; nothing replayed"
        case .warning(let source, let message): "\(source): \(message)"
        case .restartFailed(let source, let message, _): "\(source): \(message)"
        case .restarted(let source, let activity, let tries): "\(source): \(activity) restarted after \(tries) tries"
        case .rewound(let source, _, nil): "\(source): seek back: the venue view rebuilt from the recording's start"
        case .rewound(let source, _, let checkpoint?):
            "\(source): seek back: the venue view rebuilt from its checkpoint at \(Self.seconds(checkpoint.seconds)) s"
        case .sought(let source, let position, _): "\(source): at \(Self.seconds(position)) s"
        case .checkpoint(let source, let id, _): "\(source): checkpoint \(id)"
        case .recordingStarted(let path): "recording to \(path)"
        case .recordingStopped(let path, let packets): "recording stopped: \(path), \(packets) packets"
        case .recordingFailed(let path, let reason): "recording \(path): lost (\(reason); recording stopped)"
        }
    }

    /// Seconds as given, without a trailing `.0` (`500`, `210.77`, `1e+300`).
    public static func exactSeconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Seconds to a tenth, without a trailing `.0` (`500`, `120.4`).
    public static func seconds(_ value: Double) -> String {
        let tenths = (value * 10).rounded(.down) / 10
        return tenths == tenths.rounded() && abs(tenths) < 1e15 ? String(Int(tenths)) : String(tenths)
    }
}

/// A point of a replay a seek back can resume from (`SourceNotice.rewound`): the checkpoint's id
/// and its seconds into the recording (this pass).
public struct ReplayCheckpoint: Sendable, Equatable {
    public var id: Int
    public var seconds: Double

    public init(id: Int, seconds: Double) {
        self.id = id
        self.seconds = seconds
    }
}
