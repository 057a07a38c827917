import Monitor

/// `c`: the calibration wizard. The samples and the statistics come from the data side
/// (`CalibrationProgress`); this only draws them.
///
/// Every sentence is wrapped to the screen: at 60 columns and below the instruction and the keys
/// ran off the edge (`Enter saves -67 dBm as the catalog ove`), so the wizard never said that Esc
/// cancels. A screen too short for the blank lines between the parts loses those first.
enum CalibrationView {
    /// Above this spread (dB) the samples moved too much to trust: multipath or a moving hand.
    static let spreadWarning = 4.0

    /// One line of the wizard: pieces of text in their roles.
    private typealias Line = [(text: String, role: StyleRole)]

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let name = model.calibration?.name ?? model.selectedRow?.displayName ?? "the beacon"
        let width = buffer.width - 1
        func wrap(_ text: String, role: StyleRole, lines: Int = 3) -> [Line] {
            Wrap.words(text, width: width - 2, lines: lines, ellipsis: buffer.charset.ellipsis, charset: buffer.charset).map { [("  " + $0, role)] }
        }
        let heading = Wrap.words("Calibration: hold \(name) 1 m from the receiver", width: width - 1, lines: 2,
                                 ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
        for (offset, line) in heading.enumerated() {
            buffer.fill(y: 1 + offset, role: .columnHeader)
            buffer.write(" " + line, x: 0, y: 1 + offset, role: .columnHeader)
        }
        guard let progress = model.calibration else {
            place([wrap("Waiting for samples...", role: .muted), wrap("Esc cancels", role: .muted)], top: 1 + heading.count, buffer: &buffer)
            return
        }
        let power = progress.measuredPower.map { CellFormat.fixed($0, decimals: 1) + " dBm" } ?? "-"
        let plusMinus = buffer.charset.isUnicode ? "±" : "+/-"
        let spread = "spread: " + (progress.spread.map { plusMinus + CellFormat.fixed($0, decimals: 1) + " dB" } ?? "-")
        let spreadIsLarge = (progress.spread ?? 0) > spreadWarning
        let measured = "  Measured power at 1 m: \(power)"
        // The spread beside the mean where both fit, under it otherwise.
        var figures: [Line] = TerminalText.width(measured + "   " + spread, charset: buffer.charset) <= width
            ? [[(measured, .plain), ("   " + spread, spreadIsLarge ? .warning : .plain)]]
            : [[(measured, .plain)], [("  " + spread, spreadIsLarge ? .warning : .plain)]]
        // A steady spread keeps the warning's line, so the keys stay where they were.
        figures += spreadIsLarge ? wrap("The spread is large: keep the beacon still, in line of sight.", role: .warning) : [[("", .plain)]]
        let hint: [Line]
        if let file = progress.savedTo {
            // The value saved, not only where: the mean above has a decimal the catalog does not.
            hint = wrap("Saved \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override in \(file). Esc returns.", role: .nearest)
        } else if let failure = progress.saveFailure {
            hint = wrap("Calibration \(failure). Enter tries again; Esc cancels.", role: .warning, lines: 4)
        } else if progress.isComplete {
            hint = wrap("Enter saves \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override; Esc cancels.", role: .nearest)
        } else {
            hint = wrap("Collecting... Esc cancels.", role: .muted)
        }
        place([[bar(progress, width: buffer.width, charset: buffer.charset)], figures, hint], top: 1 + heading.count, buffer: &buffer)
    }

    /// Draws `groups` of lines from line `top` down, a blank line before each group while the
    /// screen has room for them all.
    private static func place(_ groups: [[Line]], top: Int, buffer: inout ScreenBuffer) {
        let spaced = top + groups.count + groups.reduce(0) { $0 + $1.count } < buffer.height
        var y = top
        for group in groups {
            if spaced { y += 1 }
            for line in group {
                var x = 0
                for piece in line { x += buffer.write(piece.text, x: x, y: y, role: piece.role) }
                y += 1
            }
        }
    }

    /// The progress bar and the sample count.
    private static func bar(_ progress: CalibrationProgress, width: Int, charset: Charset) -> Line {
        let needed = max(1, progress.samplesNeeded)
        let fraction = min(1, Double(progress.samplesCollected) / Double(needed))
        // Samples keep coming after those needed (a longer hold, a steadier mean): then only a count.
        let counter = progress.samplesCollected < progress.samplesNeeded
            ? " \(progress.samplesCollected)/\(progress.samplesNeeded) samples" : " \(progress.samplesCollected) samples"
        let barWidth = max(4, width - 4 - counter.count)
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let (full, empty): (Character, Character) = charset.isUnicode ? ("█", "░") : ("#", ".")
        return [("  [", .plain), (String(repeating: full, count: filled), .chart), (String(repeating: empty, count: barWidth - filled), .muted),
                ("]", .plain), (counter, .plain)]
    }
}
