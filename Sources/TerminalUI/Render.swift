import Monitor

/// A terminal size in cells.
public struct ScreenSize: Equatable, Sendable {
    public var columns: Int
    public var lines: Int
    public init(columns: Int, lines: Int) {
        self.columns = columns
        self.lines = lines
    }
}

/// Draws one frame: a pure function of the view model and the screen size, so every screen can be
/// asserted as text plus roles in tests, and the ncurses side only copies cells.
public func render(_ model: MonitorViewModel, size: ScreenSize, charset: Charset = .unicode) -> ScreenBuffer {
    var buffer = ScreenBuffer(width: size.columns, height: size.lines, charset: charset)
    guard TableGeometry.fits(columns: size.columns, lines: size.lines) else {
        drawTooSmall(size: size, into: &buffer)
        return buffer
    }
    TitleBar.draw(model, into: &buffer)
    switch model.screen {
    case .table: TableView.draw(model, into: &buffer)
    case .detail: DetailView.draw(model, into: &buffer)
    case .help: HelpView.draw(model, into: &buffer)
    case .events: EventLogView.draw(model, into: &buffer)
    case .calibration: CalibrationView.draw(model, into: &buffer)
    case .health: HealthView.draw(model, into: &buffer)
    case .scanners: ScannerListView.draw(model, into: &buffer)
    case .devices: DeviceListView.draw(model, into: &buffer)
    case .deviceDetail: DeviceDetailView.draw(model, into: &buffer)
    }
    StatusLine.draw(model, into: &buffer)
    return buffer
}

/// Below 40x10 the table cannot be read; say so, in as much of the message as fits.
private func drawTooSmall(size: ScreenSize, into buffer: inout ScreenBuffer) {
    let lines = Wrap.words(
        "Terminal too small: \(size.columns)x\(size.lines). beacontop needs at least "
            + "\(TableGeometry.minimumColumns)x\(TableGeometry.minimumLines). q quits.",
        width: size.columns, lines: size.lines, ellipsis: buffer.charset.ellipsis, charset: buffer.charset)
    let top = max(0, (size.lines - lines.count) / 2)
    for (offset, line) in lines.enumerated() {
        buffer.write(line, x: max(0, (size.columns - line.count) / 2), y: top + offset, role: .warning)
    }
}
