/// Maps capture time to wall-clock time for a paced replay. Pure: it is told the times and
/// never reads a clock, so pacing, pause and speed change are tested without waiting.
///
/// An anchor pairs a capture time with the wall time it was (or will be) played at; after it,
/// capture time runs `speed` times faster than wall time. Pausing, resuming and changing speed
/// move the anchor so the replay continues from where it is without a jump.
public struct ReplayPacer: Sendable, Equatable {
    public private(set) var anchorCapture: Double
    public private(set) var anchorWall: Double
    public private(set) var speed: ReplaySpeed
    /// Capture time reached when paused; nil while running.
    public private(set) var pausedAt: Double?

    public init(captureStart: Double, wallStart: Double, speed: ReplaySpeed) {
        anchorCapture = captureStart
        anchorWall = wallStart
        self.speed = speed
    }

    /// The capture time being played at `wall` (the position shown on screen).
    public func captureTime(atWall wall: Double) -> Double {
        if let pausedAt { return pausedAt }
        switch speed {
        case .max: return .infinity
        case .factor(let factor): return anchorCapture + (wall - anchorWall) * factor
        }
    }

    /// Seconds to wait at `wall` before the packet stamped `captureTime` is due; 0 when due now,
    /// nil while paused (wait for resume or a step).
    public func delay(until captureTime: Double, atWall wall: Double) -> Double? {
        if pausedAt != nil { return nil }
        switch speed {
        case .max: return 0
        case .factor(let factor): return Swift.max(0, anchorWall + (captureTime - anchorCapture) / factor - wall)
        }
    }

    public mutating func pause(atWall wall: Double, lastCaptureTime: Double) {
        guard pausedAt == nil else { return }
        pausedAt = speed == .max ? lastCaptureTime : captureTime(atWall: wall)
    }

    public mutating func resume(atWall wall: Double) {
        guard let pausedAt else { return }
        anchorCapture = pausedAt
        anchorWall = wall
        self.pausedAt = nil
    }

    /// While paused, a step moves the position to the packet it delivered.
    public mutating func stepped(to captureTime: Double) {
        if pausedAt != nil { pausedAt = captureTime }
    }

    public mutating func setSpeed(_ newSpeed: ReplaySpeed, atWall wall: Double, lastCaptureTime: Double) {
        if pausedAt == nil {
            anchorCapture = speed == .max ? lastCaptureTime : captureTime(atWall: wall)
            anchorWall = wall
        }
        speed = newSpeed
    }

    /// A loop's next pass: its times are the last pass's less `shift` (the pass's length plus the
    /// 1 s between passes), so the anchor moves back by it and the pass's first packet is due 1 s
    /// of capture time after the last one's last, at the speed and pause the replay has now. A new
    /// pacer started each pass at once: a 1-packet capture looped without a pause (30,898 passes,
    /// 8.6 hours of capture time, in 2 s of `scan one.btsnoop --loop --speed 1`), and a speed set
    /// with `+` went back to `--speed`.
    public mutating func startPass(shiftedBy shift: Double) {
        anchorCapture -= shift
        if let pausedAt { self.pausedAt = pausedAt - shift }
    }

    /// Starts over at `captureStart` now (a seek).
    public mutating func restart(captureStart: Double, atWall wall: Double) {
        anchorCapture = captureStart
        anchorWall = wall
        if pausedAt != nil { pausedAt = captureStart }
    }
}
