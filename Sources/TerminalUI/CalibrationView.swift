import Monitor

/// `c`: the calibration wizard. The samples and the statistics come from the data side
/// (`CalibrationProgress`); this only draws them.
enum CalibrationView {
    /// Above this spread (dB) the samples moved too much to trust: multipath or a moving hand.
    static let spreadWarning = 4.0

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let name = model.calibration?.name ?? model.selectedRow?.displayName ?? "the beacon"
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" Calibration: hold \(name) 1 m from the receiver", x: 0, y: 1, role: .columnHeader)
        guard let progress = model.calibration else {
            buffer.write("  Waiting for samples...", x: 0, y: 3, role: .muted)
            buffer.write("  Esc cancels", x: 0, y: 5, role: .muted)
            return
        }
        let needed = max(1, progress.samplesNeeded)
        let fraction = min(1, Double(progress.samplesCollected) / Double(needed))
        // Samples keep coming after those needed (a longer hold, a steadier mean): then only a count.
        let counter = progress.samplesCollected < progress.samplesNeeded
            ? " \(progress.samplesCollected)/\(progress.samplesNeeded) samples" : " \(progress.samplesCollected) samples"
        let barWidth = max(4, buffer.width - 4 - counter.count)
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let (full, empty): (Character, Character) = buffer.charset.isUnicode ? ("█", "░") : ("#", ".")
        var x = buffer.write("  [", x: 0, y: 3, role: .plain)
        x += buffer.write(String(repeating: full, count: filled), x: x, y: 3, role: .chart)
        x += buffer.write(String(repeating: empty, count: barWidth - filled), x: x, y: 3, role: .muted)
        x += buffer.write("]", x: x, y: 3, role: .plain)
        buffer.write(counter, x: x, y: 3, role: .plain)

        let power = progress.measuredPower.map { CellFormat.fixed($0, decimals: 1) + " dBm" } ?? "-"
        let plusMinus = buffer.charset.isUnicode ? "±" : "+/-"
        let spread = progress.spread.map { plusMinus + CellFormat.fixed($0, decimals: 1) + " dB" } ?? "-"
        x = buffer.write("  Measured power at 1 m: \(power)", x: 0, y: 5, role: .plain)
        buffer.write("   spread: \(spread)", x: x, y: 5, role: (progress.spread ?? 0) > spreadWarning ? .warning : .plain)
        if (progress.spread ?? 0) > spreadWarning {
            buffer.write("  The spread is large: keep the beacon still, in line of sight.", x: 0, y: 6, role: .warning)
        }
        let hint: String
        if let file = progress.savedTo {
            // The value saved, not only where: the mean above has a decimal the catalog does not.
            hint = "  Saved \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override in \(file). Esc returns."
        } else if let failure = progress.saveFailure {
            buffer.write("  Calibration \(failure). Enter tries again; Esc cancels.", x: 0, y: 8, role: .warning)
            return
        } else if progress.isComplete {
            hint = "  Enter saves \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override; Esc cancels."
        } else {
            hint = "  Collecting... Esc cancels."
        }
        buffer.write(hint, x: 0, y: 8, role: progress.isComplete ? .nearest : .muted)
    }
}
