import Monitor
import Survey

/// `H`: every transmitter's health, one line each (by name, then address), its findings on the
/// lines under it: battery, temperature, TLM age, advertising count and uptime from the last
/// Eddystone-TLM (or `encrypted`), the measured advertising interval and loss.
enum HealthView {
    /// Columns: name, address, then the fixed-width values.
    static let headings: [(title: String, width: Int)] = [
        ("BATTERY", 7), ("TEMP", 6), ("TLM AGE", 7), ("COUNT", 8), ("UPTIME", 7), ("INTERVAL", 8), ("LOSS", 5),
    ]

    static func draw(_ model: MonitorViewModel, into buffer: inout ScreenBuffer) {
        let health = model.health
        let width = buffer.width
        let fixed = headings.reduce(0) { $0 + $1.width + 1 }
        let addressWidth = 17
        let nameWidth = max(8, width - fixed - addressWidth - 2)
        buffer.fill(y: 1, role: .columnHeader)
        buffer.write(" NAME", x: 0, y: 1, role: .columnHeader, limit: nameWidth)
        var x = nameWidth + 1
        buffer.write("ADDRESS", x: x, y: 1, role: .columnHeader)
        x += addressWidth + 1
        for heading in headings {
            buffer.writeRight(heading.title, end: x + heading.width, y: 1, role: .columnHeader)
            x += heading.width + 1
        }
        let last = buffer.height - 2
        var y = 2
        if health.transmitters.isEmpty {
            buffer.write("  No beacon heard yet: health shows once a beacon frame arrives.", x: 0, y: y, role: .muted)
            return
        }
        for transmitter in health.transmitters where y <= last {
            let findings = transmitter.findings.map(\.description)
                + (transmitter.identities.flatMap { health.byIdentity[$0]?.duplicates ?? [] }.map(\.description))
            let role: StyleRole = findings.isEmpty ? .plain : .finding
            if !findings.isEmpty { buffer.put("!", x: 0, y: y, role: .finding) }
            buffer.write(transmitter.name, x: 1, y: y, role: role, limit: nameWidth - 1)
            x = nameWidth + 1
            buffer.write(transmitter.address.description, x: x, y: y, role: .plain)
            x += addressWidth + 1
            for (value, heading) in zip(HealthText.columns(transmitter, at: health.time), headings) {
                buffer.writeRight(value, end: x + heading.width, y: y, role: value == "-" ? .muted : .plain)
                x += heading.width + 1
            }
            y += 1
            for finding in findings where y <= last {
                buffer.write("   " + finding, x: 0, y: y, role: .finding)
                y += 1
            }
        }
    }
}
