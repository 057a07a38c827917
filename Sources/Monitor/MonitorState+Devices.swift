/// The device list's selection (`d`): the table's keys move it, a click picks a line, and Enter
/// shows the selected device's detail (`MonitorScreen.deviceDetail`), where the keys scroll a
/// detail longer than the screen and otherwise step to the next device, as on a beacon's detail.
extension MonitorState {
    /// Index of the selected device within `devices`: the selected one where it is listed, else the
    /// one now at its place (it left, or the filter hides it), else the first.
    public func selectedDeviceIndex(in devices: [VenueDevice]) -> Int? {
        guard !devices.isEmpty else { return nil }
        if let selectedDevice, let index = devices.firstIndex(where: { $0.id == selectedDevice }) { return index }
        return min(selectedDevicePlace, devices.count - 1)
    }

    /// The keys' move on the device screens; nil where they do something else (another screen, or a
    /// device detail longer than the screen, which they scroll).
    mutating func moveDeviceSelection(for action: MonitorAction) -> Reaction? {
        guard screen == .devices || (screen == .deviceDetail && scrollLimit <= 0) else { return nil }
        // The list's lines: the screen less the title, the column heading, the status line, and
        // one kept in view from the page before.
        let page = max(1, screenSize.lines - 4)
        let delta = switch action {
        case .selectPrevious: -1
        case .selectNext: 1
        case .pageUp: -page
        case .pageDown: page
        case .selectFirst: Int.min / 2
        default: Int.max / 2
        }
        let devices = visibleDevices
        guard let current = selectedDeviceIndex(in: devices) else { return [] }
        let target = min(max(current + delta, 0), devices.count - 1)
        let moved = devices[target].id != selectedDevice
        selectedDevice = devices[target].id
        selectedDevicePlace = target
        return moved ? .redraw : []
    }

    /// A click on the list's line `line`: the device drawn there (the list starts on line 2, from
    /// the device the last frame put at its top).
    mutating func clickDevice(atLine line: Int) -> Reaction {
        let devices = visibleDevices
        let index = scroll + line - 2
        guard line >= 2, line < screenSize.lines - 1, devices.indices.contains(index) else { return [] }
        selectedDevice = devices[index].id
        selectedDevicePlace = index
        return .redraw
    }
}
