/// Colours for RSSI on the coverage maps: viridis (van der Walt and Smith, matplotlib's default),
/// which reads in order from dark to bright in colour and in grey and to most colour-blind eyes,
/// from -100 dBm (nothing heard) to -40 dBm (beside the beacon).
public enum ColorScale {
    public static let low = -100.0
    public static let high = -40.0

    /// Viridis at 0, 1/4, 1/2, 3/4 and 1.
    static let stops: [(red: Double, green: Double, blue: Double)] = [
        (0x44, 0x01, 0x54), (0x3B, 0x52, 0x8B), (0x21, 0x91, 0x8C), (0x5E, 0xC9, 0x62), (0xFD, 0xE7, 0x25),
    ]

    /// Where `dBm` falls on the scale, 0...1 (clamped).
    public static func fraction(_ dBm: Double) -> Double {
        guard dBm.isFinite else { return 0 }
        return min(max((dBm - low) / (high - low), 0), 1)
    }

    /// `#rrggbb` for an RSSI.
    public static func color(_ dBm: Double) -> String {
        color(atFraction: fraction(dBm))
    }

    /// `#rrggbb` at a point of the scale, 0...1.
    public static func color(atFraction value: Double) -> String {
        let position = min(max(value, 0), 1) * Double(stops.count - 1)
        let index = min(Int(position), stops.count - 2)
        let t = position - Double(index)
        let (a, b) = (stops[index], stops[index + 1])
        let channels = [a.red + (b.red - a.red) * t, a.green + (b.green - a.green) * t, a.blue + (b.blue - a.blue) * t]
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in channels {
            let byte = Int(channel.rounded())
            text.append(digits[byte >> 4])
            text.append(digits[byte & 0xF])
        }
        return text
    }
}
