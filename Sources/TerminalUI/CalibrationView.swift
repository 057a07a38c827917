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
        // A sentence and the keys after it, the keys on a line of their own where the whole does
        // not fit in `lines`: a catalog's long path ('Saved -85 dBm as the catalog override in
        // /work/hall/museum.yaml. Esc returns.') cut the keys off at 40 columns.
        func sentence(_ text: String, keys: String, role: StyleRole, lines: Int) -> [Line] {
            let whole = text + " " + keys
            let unlimited = Wrap.words(whole, width: width - 2, lines: .max, ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
            return unlimited.count <= lines ? wrap(whole, role: role, lines: lines) : wrap(text, role: role, lines: lines - 1) + wrap(keys, role: role, lines: 1)
        }
        // The instruction is what the heading is for: where the sentence does not fit, the name
        // gives way (`hold Harrison's H4 Chronometer (re… 1 m from the receiver`). Cut at the end,
        // a demo exhibit's name pushed `receiver` off at 40 columns, and a longer one `1 m`.
        func heading(lines: Int) -> [String] {
            func wrapped(_ name: String, _ limit: Int) -> [String] {
                Wrap.words("Calibration: hold \(name) 1 m from the receiver", width: width - 1, lines: limit,
                           ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
            }
            guard wrapped(name, lines + 1).count > lines else { return wrapped(name, lines) }
            func cut(_ count: Int) -> String {
                var head = String(name.prefix(count))
                while head.last?.isWhitespace == true { head.removeLast() }
                return head + String(buffer.charset.ellipsis)
            }
            // The longest head of the name that leaves the sentence whole (a name can be 10,000 characters).
            var (low, high) = (0, name.count)
            while low < high {
                let middle = (low + high + 1) / 2
                if wrapped(cut(middle), lines + 1).count <= lines { low = middle } else { high = middle - 1 }
            }
            // On one line the instruction alone does not fit beside the verb: the sentence is cut.
            return wrapped(cut(low), lines + 1).count <= lines ? wrapped(cut(low), lines) : wrapped(name, lines)
        }
        func drawHeading(_ lines: [String]) {
            for (offset, line) in lines.enumerated() {
                buffer.fill(y: 1 + offset, role: .columnHeader)
                buffer.write(" " + line, x: 0, y: 1 + offset, role: .columnHeader)
            }
        }
        guard let progress = model.calibration else {
            let lines = heading(lines: 2)
            drawHeading(lines)
            place([wrap("Waiting for samples...", role: .muted), wrap("Esc cancels", role: .muted)], top: 1 + lines.count, buffer: &buffer)
            return
        }
        let power = progress.measuredPower.map { CellFormat.fixed($0, decimals: 1) + " dBm" } ?? "-"
        let plusMinus = buffer.charset.isUnicode ? "±" : "+/-"
        let spread = "spread: " + (progress.spread.map { plusMinus + CellFormat.fixed($0, decimals: 1) + " dB" } ?? "-")
        let spreadIsLarge = (progress.spread ?? 0) > spreadWarning
        let measured = "  Measured power at 1 m: \(power)"
        // The spread beside the mean where both fit, under it otherwise.
        let figures: [Line] = TerminalText.width(measured + "   " + spread, charset: buffer.charset) <= width
            ? [[(measured, .plain), ("   " + spread, spreadIsLarge ? .warning : .plain)]]
            : [[(measured, .plain)], [("  " + spread, spreadIsLarge ? .warning : .plain)]]
        let hint: [Line]
        if let file = progress.savedTo {
            // The value saved, not only where: the mean above has a decimal the catalog does not.
            hint = sentence("Saved \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override in \(file).", keys: "Esc returns.",
                            role: .nearest, lines: 4)
        } else if let failure = progress.saveFailure {
            hint = sentence("Calibration \(failure).", keys: "Enter tries again; Esc cancels.", role: .warning, lines: 4)
        } else if progress.isComplete {
            hint = wrap("Enter saves \(Int((progress.measuredPower ?? 0).rounded())) dBm as the catalog override; Esc cancels.", role: .nearest)
        } else {
            hint = wrap("Collecting... Esc cancels.", role: .muted)
        }
        // A steady spread keeps the warning's line, so the keys stay where they were. On a screen
        // too short for every line (40x10: the keys' second line, 'override; Esc cancels.', fell
        // under the status line) the warning is cut to one line, then the heading, then the
        // warning's line goes: the keys, the bar and the figures always show.
        let warningText = "The spread is large: keep the beacon still, in line of sight."
        var warningLines = spreadIsLarge ? wrap(warningText, role: .warning).count : 1
        var headingLines = heading(lines: 2).count
        let room = buffer.height - 2
        func needed() -> Int { headingLines + 1 + figures.count + warningLines + hint.count }
        if needed() > room { warningLines = max(1, warningLines - (needed() - room)) }
        if needed() > room { headingLines = 1 }
        if needed() > room { warningLines = 0 }
        let warning: [Line] = warningLines == 0 ? [] : spreadIsLarge ? wrap(warningText, role: .warning, lines: warningLines) : [[("", .plain)]]
        let headingShown = heading(lines: headingLines)
        drawHeading(headingShown)
        place([[bar(progress, width: buffer.width, charset: buffer.charset)], figures + warning, hint], top: 1 + headingShown.count, buffer: &buffer)
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
