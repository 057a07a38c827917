import Monitor

/// `?`: the key table, drawn from the same `KeyBinding`s the loop dispatches on.
enum HelpView {
    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" Keys (Esc or ? returns)", x: 0, y: 1, role: .columnHeader)
        let bindings = model.keyBindings
        let available = max(1, buffer.height - 3)
        let columns = (bindings.count + available - 1) / available
        let columnWidth = buffer.width / max(1, columns)
        let keyWidth = 11
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
