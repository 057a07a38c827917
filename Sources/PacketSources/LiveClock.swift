import Glibc
import Synchronization

/// The Unix seconds a live source's packets, a broker's messages and the owner loops are stamped
/// with: the host's wall clock (`CLOCK_REALTIME`), except that it never runs back. When the wall
/// clock steps back (a Raspberry Pi has no RTC: chrony/NTP stepping it, or `date -s`), the time runs
/// on by `CLOCK_MONOTONIC`, which no step reaches, from where it was; so from then on it is ahead
/// of the wall clock by the step. A step forward first takes that lead back (the clock set right
/// again), then is taken as it comes (a Pi booting at its saved time, then set right by NTP).
/// Steps within `tolerance` are taken as they are, time held rather than run back.
///
/// Why: ranging never ticks behind a tick it emitted (`BeaconPipeline`), so packets stamped N s
/// back got no tick for N s: the monitor froze, `scan --publish` published nothing, visits stalled.
/// It is the live form of `CaptureClock`'s rule (a step back is a step of zero), applied to the
/// host's clock readings and not to packet times, so readings a broker hands on late (an MQTT view's
/// up to 0.5 s) are never taken for a jump. Not re-anchored to the wall clock otherwise: that
/// would be the step back again. A clock that never steps back gives the wall clock's own readings, bit for bit.
public struct LiveClock: Sendable {
    /// The largest step taken as it is, as `CaptureClock` takes one: far above the two clocks'
    /// reading jitter and rounding (microseconds), which must not add up into a drift.
    public static let tolerance = CaptureClock.tolerance
    /// Added to the wall clock since the last step back (less what steps forward took back).
    public private(set) var lead = 0.0
    private var last: (time: Double, monotonic: Double)?

    public init() {}

    /// The time for a wall clock reading `wall` taken with a monotonic reading `monotonic`,
    /// readings in the order taken.
    public mutating func time(wall: Double, monotonic: Double) -> Double {
        var time = wall + lead
        if let last {
            let expected = last.time + max(0, monotonic - last.monotonic)
            if expected - time > Self.tolerance {
                lead += expected - time  // the wall clock stepped back: run on from where it was
                time = expected
            } else if time - expected > Self.tolerance, lead > 0 {
                let taken = min(lead, time - expected)  // stepped forward: first the lead goes
                lead -= taken
                time -= taken
            }
            time = max(time, last.time)
        }
        last = (time, monotonic)
        return time
    }

    /// A clock over the given readings, safe to call from any thread (sources, the MQTT
    /// client's thread, the owner loop): one state, so every caller sees the same time line.
    public static func steady(
        wall: @escaping @Sendable () -> Double, monotonic: @escaping @Sendable () -> Double
    ) -> @Sendable () -> Double {
        let state = Mutex(LiveClock())
        return {
            state.withLock { clock in
                let rising = monotonic()
                return clock.time(wall: wall(), monotonic: rising)
            }
        }
    }

    /// The process's one live clock over `CLOCK_REALTIME` and `CLOCK_MONOTONIC`.
    public static let now: @Sendable () -> Double = steady(wall: { reading(CLOCK_REALTIME) }, monotonic: { reading(CLOCK_MONOTONIC) })

    private static func reading(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
