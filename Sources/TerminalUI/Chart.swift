/// Sparklines and bar charts from block elements (U+2581...U+2588), or an ASCII ramp.
enum Chart {
    /// RSSI range the sparkline spans: below -100 dBm nothing is heard, above -30 the phone is touching.
    static let rssiFloor = -100.0
    static let rssiCeiling = -30.0

    /// The least RSSI span a sparkline is scaled to: narrower and a 1 dB wobble would fill the height.
    static let sparklineMinimumSpan = 12

    /// One level per sample (0 lowest), newest on the right, the last `width` samples. Scaled to the
    /// samples' own range (at least `sparklineMinimumSpan` dB, centred), so a beacon's trend shows
    /// whatever its level; the absolute level is in the RSSI column beside it. The table draws the
    /// levels straight into cells, which skips building and grapheme-breaking a string per row.
    static func sparklineLevels(_ samples: [Int], width: Int, levelCount: Int) -> [Int] {
        guard width > 0 else { return [] }
        let shown = samples.suffix(width)
        guard var low = shown.min(), var high = shown.max() else { return [] }
        if high - low < sparklineMinimumSpan {
            let middle = (low + high) / 2
            low = middle - sparklineMinimumSpan / 2
            high = low + sparklineMinimumSpan
        }
        return shown.map { sample in
            let fraction = Double(sample - low) / Double(high - low)
            return Int((min(max(fraction, 0), 1) * Double(levelCount - 1)).rounded())
        }
    }

    /// A bar chart `height` lines tall, one column per sample (newest right), scaled between `low` and
    /// `high`. Line 0 is the top. Each line has at most `width` characters.
    static func bars(_ samples: [Double], width: Int, height: Int, low: Double, high: Double, charset: Charset) -> [String] {
        guard width > 0, height > 0 else { return [] }
        let levels = charset.levels
        let shown = samples.suffix(width)
        let span = high - low
        let eighths: [Int] = shown.map { value in
            let fraction = span > 0 ? (value - low) / span : 0.5
            // At least one eighth so a sample at the floor is still visible.
            return max(1, Int((min(max(fraction, 0), 1) * Double(height * 8)).rounded()))
        }
        return (0..<height).map { line in
            let rowFromBottom = height - 1 - line
            var text = ""
            for filled in eighths {
                let inRow = filled - rowFromBottom * 8
                if inRow <= 0 {
                    text.append(" ")
                } else if charset == .ascii {
                    text.append(inRow >= 8 ? "#" : (inRow >= 4 ? "+" : "."))
                } else if charset == .linuxConsole {
                    text.append(inRow >= 8 ? "█" : (inRow >= 4 ? "▒" : "░")) // what its fonts have
                } else {
                    text.append(levels[min(inRow, 8) - 1])
                }
            }
            return text
        }
    }
}
