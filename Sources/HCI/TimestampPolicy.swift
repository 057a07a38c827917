/// The one range of packet times beacontop accepts (docs/robustness.md "Timestamps"): Unix
/// seconds from 1970-01-01 up to, not including, 2200-01-01 UTC.
///
/// Why a range at all: a capture header is 64 bits of anyone's choosing (a pcapng `if_tsoffset`
/// of 2^63 s, an `if_tsresol` of 10^0 with 2^64 ticks, a btsnoop time before year 0), and times
/// that large break arithmetic downstream: adding a 1 s tick to 1e17 changes nothing, converting
/// 1e13 s to Int64 microseconds traps. Every capture reader counts a record outside the range as
/// malformed and skips it; the advertisement script rejects such a line; the ranging pipeline
/// skips such a packet. Inside the range every time is exact to well under a microsecond
/// (2^53 µs is 285 years), so ticks and JSON never lose it.
public enum TimestampPolicy {
    /// 1970-01-01T00:00:00Z: before it, a time is a relative clock or garbage.
    public static let earliest: Double = 0
    /// 2200-01-01T00:00:00Z (84,006 days after 1970), exclusive.
    public static let latest: Double = 7_258_118_400
    /// The same bounds in microseconds, for readers that keep integer time.
    public static let latestMicroseconds: Int64 = 7_258_118_400_000_000

    /// Silence longer than this is a discontinuity, not a wait: ranging ticks stop one day after
    /// the last packet and resume at the next one (a capture paused overnight, or a forged jump).
    public static let longestGap: Double = 86_400

    /// True when `time` (Unix seconds) is inside the accepted range; false for NaN and infinities.
    @inline(__always)
    public static func accepts(_ time: Double) -> Bool {
        time >= earliest && time < latest
    }

    /// Why `time` is refused, for a malformed-record message.
    public static func refusal(_ time: Double) -> String {
        "timestamp \(time) s is outside 1970-01-01 to 2200-01-01 (docs/robustness.md)"
    }
}
