import BeaconFormats
import Captures

/// The time ranging is given for a capture's packets: the file's own time, except that a step back
/// of more than `tolerance` (a phone's clock set back mid-capture, a btsnoop merged from two logs)
/// is taken as a step of zero, and every later packet is moved on by the same amount, so ranging
/// time never runs back. The paced replay (`ReplayEngine`: the monitor, `scan FILE`) takes such a step the same way.
///
/// Why here and not in ranging: `BeaconPipeline` never emits a tick behind one it emitted, so the
/// packets after a jump back of N s were ranged (their arrivals and filters dated N s in the past)
/// but no tick came until the file's clock passed the jump again: N s of the capture were missing
/// from `replay --json` and `report`, and the beacons heard in them read as silent, then forgotten.
/// Steps back within `tolerance` (two radios' packets interleaved a few milliseconds out of order)
/// are left as they are, so a capture that never jumps back is ranged byte for byte as before.
/// `decode` shows each packet's own time, as btmon and Wireshark do (a negative delta).
public struct CaptureClock: Sendable {
    /// The largest step back taken as it is: the paced replay's batch window.
    public static let tolerance = ReplayEngine.batchWindow
    /// The largest step back taken as it is by this clock.
    public let tolerance: Double
    /// Added to every file time from the last jump back on.
    public private(set) var shift = 0.0
    private var latest: Double?

    /// - Parameter tolerance: a venue recording's takes its messages' late arrivals (up to a
    ///   second) as they are.
    public init(tolerance: Double = Self.tolerance) {
        self.tolerance = tolerance
    }

    /// The ranging time of a packet the file stamps `time`, in file order.
    public mutating func time(_ time: Double) -> Double {
        var moved = time + shift
        if let latest, latest - moved > tolerance {
            shift += latest - moved
            moved = latest
        }
        latest = max(latest ?? moved, moved)
        return moved
    }

    /// `sighting` dated by the packet's ranging time (the shift applies to its sightings too).
    @inline(__always)
    public func shifted(_ sighting: BeaconSighting) -> BeaconSighting {
        guard shift != 0 else { return sighting }
        var moved = sighting
        moved.timestamp += shift
        return moved
    }
}

extension CaptureClock {
    /// Seconds a replay of the capture at `path` plays from its first record to its last, a step
    /// back of its clock taken as a step of zero as the replay takes it (`ReplayEngine`): the
    /// length the monitor shows beside a position that runs on through the step. The file's first
    /// to last record fell short by the step (govee-h5100.btsnoop set back 100 s showed 04:55
    /// while the replay played 06:35). nil when it cannot be read or holds no record.
    public static func replayLength(path: String) -> Double? {
        var clock = CaptureClock()
        return CaptureReader.span(path: path) { clock.time($0) }?.seconds
    }
}
