import Monitor

/// `?`: the key table, drawn from the same `KeyBinding`s the loop dispatches on.
enum HelpView {
    /// The fewest summary columns a help column keeps.
    static let minimumSummary = 8

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" Keys (Esc or ? returns)", x: 0, y: 1, role: .columnHeader)
        let available = max(1, buffer.height - 3)
        let keyWidth = 11
        // Every column keeps room for a readable start of its summaries: on a small terminal, fewer
        // columns and a last line saying how many keys did not fit (before, the columns shrank below
        // the key width and each summary's ellipsis landed on the next column's keys).
        let widest = max(1, buffer.width / (keyWidth + 1 + Self.minimumSummary))
        let columns = min(widest, (model.keyBindings.count + available - 1) / available)
        let capacity = max(1, columns) * available
        var bindings = model.keyBindings
        var hidden = 0
        if bindings.count > capacity {
            hidden = bindings.count - (capacity - 1)
            bindings = Array(bindings.prefix(capacity - 1))
        }
        let columnWidth = buffer.width / max(1, columns)
        if hidden > 0 {
            let x = (capacity - 1) / available * columnWidth + 1
            buffer.write("\(hidden) more: enlarge", x: x, y: 2 + (capacity - 1) % available,
                         role: .muted, limit: columnWidth - 1)
        }
        for (index, binding) in bindings.enumerated() {
            let column = index / available
            let x = column * columnWidth + 1
            let y = 2 + index % available
            let labels = binding.keys.map { buffer.charset.isUnicode ? $0.label : $0.asciiLabel }
            buffer.write(labels.joined(separator: " "), x: x, y: y, role: .nearest, limit: keyWidth - 1)
            let room = columnWidth - keyWidth - 1
            if binding.summary.count > room {
                let written = buffer.write(binding.summary, x: x + keyWidth, y: y, role: .plain, limit: room - 1)
                buffer.write(String(buffer.charset.ellipsis), x: x + keyWidth + written, y: y, role: .plain)
            } else {
                buffer.write(binding.summary, x: x + keyWidth, y: y, role: .plain)
            }
        }
    }
}
