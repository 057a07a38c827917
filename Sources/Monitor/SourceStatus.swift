/// What the source feeding the monitor is doing, for the status line.
public struct SourceStatus: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// A live adapter or controller is scanning.
        case scanning
        /// A capture file is replaying at `speed` times real time (1 = real time; infinity = as fast as it reads).
        case replaying(speed: Double)
        /// A replay is paused; `speed` is what it resumes at (as `replaying`), shown when it is not 1x.
        case paused(speed: Double)
        /// The transport went away; `reason` says why (`"hci0 removed"`).
        case lost(reason: String)
        /// Trying again after a loss; `attempt` counts from 1.
        case reconnecting(attempt: Int)
        /// Back after a loss, but the controller refused to scan again; `reason` is the whole
        /// message ("scanning not restarted (retrying in 2 s): ..."). It said `scanning` with 0 adv/s, as if the room
        /// had gone quiet. The source tries again `retryIn` seconds after the refusal (nil: never).
        case notScanning(reason: String, retryIn: Double?)
        /// A replay reached its end.
        case finished
        /// A replay ended with nothing replayed, and `reason` says why (`--from` past the end).
        case nothingReplayed(reason: String)

        /// The replay is over: the state no longer follows pause and speed.
        public var isOver: Bool {
            switch self {
            case .finished, .nothingReplayed: true
            default: false
            }
        }
    }

    /// The source spec string as given (`hci0`, `session.btsnoop`, `tcp:127.0.0.1:9000`).
    public var name: String
    public var state: State
    /// Adverts a second; for a venue's broker, broker messages a second (`countsMessages`).
    public var advertsPerSecond: Double
    /// The rate counts broker messages (readings, statuses, telemetry), not adverts: `msg/s`.
    public var countsMessages = false
    /// A venue view started with `--read-only`: it publishes nothing, so the laptop showing it
    /// feeds no backend (said on the status line, where a technician looks).
    public var readOnly = false
    /// Packets that failed to decode so far (shown as a warning when non-zero).
    public var malformedCount: Int
    /// Packets dropped because the monitor fell behind the source (shown when non-zero).
    public var droppedPackets: Int
    /// Beacons evicted to keep within the tracking cap: more distinct beacons than are tracked
    /// (shown when non-zero; their rates start over).
    public var evictedBeacons: Int
    /// The capture file being recorded to, nil when not recording.
    public var recordingFile: String?
    /// The CSV file the session is exported to (`--export`, `x`), nil when not exporting.
    public var exportFile: String?
    /// A key that did nothing on this source, said for a few seconds (`space` on a live source,
    /// `←` on a venue recording being recorded); nil otherwise.
    public var notice: String?
    /// Replay position and total duration in seconds; nil for live sources.
    public var replayPosition: Double?
    public var replayDuration: Double?

    public init(
        name: String, state: State = .scanning, advertsPerSecond: Double = 0, malformedCount: Int = 0,
        droppedPackets: Int = 0, evictedBeacons: Int = 0,
        recordingFile: String? = nil, replayPosition: Double? = nil, replayDuration: Double? = nil
    ) {
        self.name = name
        self.state = state
        self.advertsPerSecond = advertsPerSecond
        self.malformedCount = malformedCount
        self.droppedPackets = droppedPackets
        self.evictedBeacons = evictedBeacons
        self.recordingFile = recordingFile
        self.replayPosition = replayPosition
        self.replayDuration = replayDuration
    }
}
