import BeaconFormats
import Survey

/// Which screen the monitor shows.
public enum MonitorScreen: String, Sendable {
    case table, detail, help, events, calibration
    /// Every transmitter's health (`H`).
    case health
    /// `n`: a venue's scanners (`monitor mqtt://BROKER`).
    case scanners
    /// `d`: the devices a venue tracks (ids that name no beacon: phones).
    case devices
    /// Enter on the device list: every scanner hearing the selected device, its room and the runner-up.
    case deviceDetail
}

/// The monitor's whole app state: the latest data snapshot plus what the user chose (screen, sort,
/// filter, selection). Owned by the loop thread; every change goes through `handle(_:)`,
/// `perform(_:)` or `update(_:)`, which are pure and return what the loop must do.
public struct MonitorState: Sendable {
    public private(set) var snapshot: MonitorSnapshot
    public private(set) var screen: MonitorScreen = .table {
        // A screen opens at its top; the limit is the new screen's, known once it is drawn.
        didSet { if screen != oldValue { scroll = 0; scrollLimit = 0; followsLog = true; anchor = nil } }
    }
    /// The event log shows its end, and stays there as events arrive, until it is scrolled up.
    private var followsLog = true
    /// Lines the help, health view, scanner list, event log or detail pane is scrolled down by
    /// (`↓`/`j`, `PgDn`, `End`, ...).
    public private(set) var scroll = 0
    /// How far the screen drawn last can scroll (its lines past the bottom): the loop sets it from
    /// each frame (`ScreenBuffer.scrollLimit`). The detail pane scrolls only while it is above zero,
    /// so on a screen it fits the arrows still step through the beacons' details.
    public var scrollLimit = 0 {
        didSet { scroll = min(scroll, max(0, scrollLimit)) }
    }
    /// A screen scrolled down: what the line at its top showed in the frame drawn last (an event,
    /// a key's summary, a transmitter, a scanner, a part of the detail pane, and which of its
    /// lines), kept there when the screen is wrapped anew (a resize) or paragraphs come or go above
    /// it (the log's oldest dropped, a scanner joining). At its top a screen stays at its top: only
    /// the log, which grows at its end, keeps its first event at the top as older ones go.
    public private(set) var anchor: ScrollAnchor?
    public private(set) var sort: SortOrder = .distance
    /// The table's `/` filter (`RowFilter`).
    public private(set) var filterText = ""
    /// The health view's, the scanner and device lists' and the event log's own `/` filters, each
    /// kept while the keys switch screens.
    public private(set) var screenFilters = ScreenFilters()
    /// True between `/` and Enter/Esc: printable keys then edit the filter text (on a screen in
    /// `ScreenFilters.screens`, its own) instead of acting.
    public private(set) var isEditingFilter = false
    /// The selected beacon; nil follows the first row (the nearest, by default).
    public private(set) var selected: BeaconIdentity?
    /// The device list's selection, by id, and the device its detail shows; nil follows the first.
    public internal(set) var selectedDevice: String?
    /// The device detail's device as the last snapshot that had it showed it (`ShownDevice.lastKnown`).
    var lastKnownDevice: VenueDevice?
    /// Where the selected device was in the list at the last snapshot: when it leaves, the one
    /// taking its place is selected (the table falls back to its top row, which on a list sorted by
    /// id is a jump across the venue).
    var selectedDevicePlace = 0
    /// Where the detail pane's beacon was among the rows at the last snapshot that had it: once it
    /// is gone, ↑ and ↓ step from there (from the table's first row, they jumped across the table).
    var shownPlace = 0
    /// Terminal size in cells, kept for mouse clicks and page keys.
    public var screenSize: (columns: Int, lines: Int)
    public let keyMap: KeyMap

    public init(snapshot: MonitorSnapshot, screenSize: (columns: Int, lines: Int) = (80, 24), keyMap: KeyMap = .standard) {
        self.snapshot = snapshot
        self.screenSize = screenSize
        self.keyMap = keyMap
    }

    /// The rows as shown: filtered, then sorted.
    public var visibleRows: [BeaconRowModel] {
        let filter = RowFilter(filterText)
        let rows = filter == .everything ? snapshot.rows : snapshot.rows.filter(filter.matches)
        return sort.sorted(rows, nearest: snapshot.nearest?.identity)
    }

    /// The devices as listed: those the device list's filter matches (by id, room or scanner).
    public var visibleDevices: [VenueDevice] {
        screenFilters.narrow(snapshot.devices, on: .devices) { $0.matches($1) }
    }

    /// The scanners as listed: those the scanner list's filter matches (by name, room or state).
    public var visibleScanners: [ScannerState] {
        screenFilters.narrow(snapshot.scanners, on: .scanners) { $0.matches($1) }
    }

    /// The health view's transmitters: those its filter matches (by name, id or address). The
    /// identities' conditions stay whole: the table's marks and the detail pane read them.
    public var visibleHealth: BeaconConditions {
        var health = snapshot.health
        health.transmitters = screenFilters.narrow(health.transmitters, on: .health) { $0.matches($1) }
        return health
    }

    /// The events as logged: those the event log's filter matches (by kind or message).
    public var visibleEvents: [MonitorEvent] {
        screenFilters.narrow(snapshot.events, on: .events) { $0.matches($1) }
    }

    /// Whether `/` on the screen shown edits a filter of its own rather than the table's.
    private var screenHasFilter: Bool { ScreenFilters.screens.contains(screen) }

    /// Index of the selection within `rows` (the first row when nothing or a vanished beacon is selected).
    public func selectedIndex(in rows: [BeaconRowModel]) -> Int? {
        guard !rows.isEmpty else { return nil }
        if let selected, let index = rows.firstIndex(where: { $0.identity == selected }) { return index }
        return 0
    }

    var geometry: TableGeometry {
        TableGeometry(lines: screenSize.lines, nearest: snapshot.nearest)
    }

    /// What the frame drawn last showed, handed over by the loop: how far its screen scrolls, the
    /// line at its top and what that line shows. A screen wrapped anew after a resize was drawn
    /// from its anchor, so its top line moved: the keys then count from where it is.
    public mutating func drawn(scrollLimit: Int, top: Int, anchor: ScrollAnchor?) {
        self.scrollLimit = scrollLimit
        guard !(screen == .events && followsLog) else { return }
        scroll = min(max(0, top), max(0, scrollLimit))
        // A log that shows no event (its filter matches none) names no place: the event read stays
        // for when the filter matches again. Before, clearing it then showed the log from its top.
        if screen == .events && anchor == nil { return }
        self.anchor = screen == .events || anchor?.isTop == false ? anchor : nil
    }

    /// Takes a new snapshot from the data side.
    public mutating func update(_ snapshot: MonitorSnapshot) -> Reaction {
        guard snapshot != self.snapshot else { return [] }
        // The device detail keeps the device as it was last shown: once presence forgets it, the
        // detail shows its last room and readings, dimmed, rather than nothing.
        if screen == .deviceDetail, let selectedDevice, let shown = self.snapshot.devices.first(where: { $0.id == selectedDevice }) {
            lastKnownDevice = shown
        }
        self.snapshot = snapshot
        if let selectedDevice, let index = visibleDevices.firstIndex(where: { $0.id == selectedDevice }) { selectedDevicePlace = index }
        if screen == .detail, let index = shownIndex(in: visibleRows) { shownPlace = index }
        return .redraw
    }

    /// Handles one key: filter editing first, then the key map. Returns the reaction and any command.
    public mutating func handle(_ key: Key) -> (Reaction, MonitorCommand?) {
        if isEditingFilter { return (editFilter(key), nil) }
        if case .click(let line, _) = key {
            if screen == .devices { return (clickDevice(atLine: line), nil) }
            let rows = visibleRows
            guard screen == .table,
                  let index = geometry.rowIndex(atLine: line, selectedIndex: selectedIndex(in: rows), rowCount: rows.count)
            else { return ([], nil) }
            return perform(.selectRow(index))
        }
        guard let action = keyMap.action(for: key) else { return ([], nil) }
        return perform(action)
    }

    private mutating func editFilter(_ key: Key) -> Reaction {
        var text = screenHasFilter ? screenFilters[screen] : filterText
        switch key {
        case .enter:
            isEditingFilter = false
            return .redraw
        case .escape:
            isEditingFilter = false
            text = ""
        case .backspace:
            if !text.isEmpty { text.removeLast() }
        case .character(let c) where !c.isNewline && c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }):
            text.append(c)
        case .resize:
            return [.redraw, .fullRepaint]
        default:
            return []
        }
        if screenHasFilter {
            screenFilters[screen] = text
            // A list narrowed or widened under the reader shows its matches from the top. The log
            // stays where it was: at its end while it follows new events (the newest matches), else
            // at the event read where that still matches (cleared, the reader is still at it).
            if screen != .events {
                scroll = 0
                anchor = nil
            }
        } else {
            filterText = text
        }
        return .redraw
    }

    /// Carries out one action (htop's Action functions).
    public mutating func perform(_ action: MonitorAction) -> (Reaction, MonitorCommand?) {
        if screen == .calibration, Self.screenSwitches.contains(action) {
            // The wizard is left as by Esc, samples and all, and the key then acts from the table.
            screen = .table
            let (reaction, _) = perform(action)
            return (reaction.union([.redraw, .command]), .cancelCalibration)
        }
        if Self.scrollActions.contains(action), let reaction = moveDeviceSelection(for: action) { return (reaction, nil) }
        if action == .beginFilter, screen == .deviceDetail { screen = .devices }
        if Self.scrollActions.contains(action), [.help, .health, .scanners, .events].contains(screen) || ([.detail, .deviceDetail].contains(screen) && scrollLimit > 0) {
            return (scroll(for: action), nil)
        }
        switch action {
        case .quit:
            return (.quit, nil)
        case .resize:
            return ([.redraw, .fullRepaint], nil)
        case .selectPrevious: return (moveSelection(by: -1), nil)
        case .selectNext: return (moveSelection(by: 1), nil)
        case .pageUp: return (moveSelection(by: -max(1, geometry.rowCapacity)), nil)
        case .pageDown: return (moveSelection(by: max(1, geometry.rowCapacity)), nil)
        case .selectFirst: return (moveSelection(by: Int.min / 2), nil)
        case .selectLast: return (moveSelection(by: Int.max / 2), nil)
        case .selectRow(let index):
            let rows = visibleRows
            guard rows.indices.contains(index) else { return ([], nil) }
            selected = rows[index].identity
            return (.redraw, nil)
        case .toggleDetail:
            switch screen {
            case .table:
                guard let row = selectedRow else { return ([], nil) }
                // Pinned, as the calibration's beacon is: with nothing selected the table's first
                // row is the selection, and the detail followed whichever beacon became nearest.
                selected = row.identity
                shownPlace = selectedIndex(in: visibleRows) ?? 0
                screen = .detail
            case .calibration:
                return saveCalibration()
            case .devices:
                let devices = visibleDevices
                guard let index = selectedDeviceIndex(in: devices) else { return ([], nil) }
                // Pinned: the detail shows this device, not whichever takes the list's top.
                selectedDevice = devices[index].id
                screen = .deviceDetail
            case .deviceDetail:
                screen = .devices
            default:
                screen = .table
            }
            return (.redraw, nil)
        case .cycleSort:
            sort = sort.next
            return (.redraw, nil)
        case .beginFilter:
            // The health view, the scanner and device lists and the event log filter themselves;
            // every other screen filters the table (ScreenFilters.screens).
            if !screenHasFilter { screen = .table }
            isEditingFilter = true
            return (.redraw, nil)
        case .cycleRangingFilter:
            let names = snapshot.filterNames
            guard !names.isEmpty else { return ([], nil) }
            let current = snapshot.activeFilter.flatMap { names.firstIndex(of: $0) } ?? -1
            return (.command, .selectFilter(names[(current + 1) % names.count]))
        case .togglePause: return (.command, .togglePause)
        case .step: return (.command, .step)
        case .speedUp: return (.command, .speedUp)
        case .slowDown: return (.command, .slowDown)
        case .seekBackward: return (.command, .seek(seconds: -KeyMap.seekStep))
        case .seekForward: return (.command, .seek(seconds: KeyMap.seekStep))
        case .toggleRecording: return (.command, .toggleRecording)
        case .toggleExport: return (.command, .toggleExport)
        case .calibrate:
            if screen == .calibration { return leaveCalibration() }
            // The beacon shown: on a detail pane whose beacon is gone, none (not the first row).
            let rows = visibleRows
            guard let index = shownIndex(in: rows) else { return ([], nil) }
            let row = rows[index]
            selected = row.identity
            screen = .calibration
            return ([.redraw, .command], .startCalibration(row.identity))
        case .toggleEventLog:
            screen = screen == .events ? .table : .events
            return (.redraw, nil)
        case .toggleHealth:
            screen = screen == .health ? .table : .health
            return (.redraw, nil)
        case .toggleScannerList:
            screen = screen == .scanners ? .table : .scanners
            return (.redraw, nil)
        case .toggleDeviceList:
            screen = [.devices, .deviceDetail].contains(screen) ? .table : .devices
            return (.redraw, nil)
        case .toggleHelp:
            screen = screen == .help ? .table : .help
            return (.redraw, nil)
        case .back:
            if screen == .calibration { return leaveCalibration() }
            guard screen != .table else { return ([], nil) }
            screen = screen == .deviceDetail ? .devices : .table
            return (.redraw, nil)
        }
    }

    /// The selection the screen shows: the detail pane shows its own beacon or none, never the
    /// first row in place of one that was forgotten (silent past `forgetAfter`) or filtered out.
    private func shownIndex(in rows: [BeaconRowModel]) -> Int? {
        guard screen == .detail, let selected else { return selectedIndex(in: rows) }
        return rows.firstIndex { $0.identity == selected }
    }

    /// The detail pane's beacon when it is no longer among the rows, so the pane can say so.
    private func goneBeacon(in rows: [BeaconRowModel]) -> BeaconIdentity? {
        guard screen == .detail, shownIndex(in: rows) == nil else { return nil }
        return selected
    }

    /// The selected row among the visible ones.
    public var selectedRow: BeaconRowModel? {
        let rows = visibleRows
        return selectedIndex(in: rows).map { rows[$0] }
    }

    private mutating func moveSelection(by delta: Int) -> Reaction {
        let rows = visibleRows
        if screen == .detail, selected != nil, shownIndex(in: rows) == nil {
            // A gone beacon's pane: from where it was, the row below it having moved up into its
            // place (↓ shows that one, ↑ the one above it), as a table row removed under a cursor.
            guard !rows.isEmpty else { return [] }
            let target = min(max(shownPlace + (delta > 0 ? delta - 1 : delta), 0), rows.count - 1)
            selected = rows[target].identity
            shownPlace = target
            return .redraw
        }
        guard let current = selectedIndex(in: rows) else { return [] }
        let target = min(max(current + delta, 0), rows.count - 1)
        selected = rows[target].identity
        shownPlace = target
        return target == current ? [] : .redraw
    }

    /// The selection keys, which scroll the help, the health view, the scanner and device lists, the event log
    /// (none of which shows the selection) and a detail pane longer than the terminal.
    static let scrollActions: Set<MonitorAction> = [.selectPrevious, .selectNext, .pageUp, .pageDown, .selectFirst, .selectLast]

    /// A screen longer than the terminal moves as `less` does: a line, a page (the lines between the
    /// title and the status line, less a heading and a marker line), the top, the end. The event log
    /// counts from its end while it follows new events.
    private mutating func scroll(for action: MonitorAction) -> Reaction {
        let page = max(1, screenSize.lines - 4)
        let current = screen == .events && followsLog ? max(0, scrollLimit) : scroll
        let target: Int
        switch action {
        case .selectPrevious: target = current - 1
        case .selectNext: target = current + 1
        case .pageUp: target = current - page
        case .pageDown: target = current + page
        case .selectFirst: target = 0
        default: target = scrollLimit
        }
        let clamped = min(max(0, target), max(0, scrollLimit))
        if screen == .events { followsLog = clamped >= scrollLimit }
        guard clamped != current else { return [] }
        scroll = clamped
        // The keys move by lines of this width: the next frame anchors the line they reach.
        anchor = nil
        return .redraw
    }

    /// The keys that open another screen. From the calibration wizard they cancel it, as Esc does:
    /// `e`, `H`, `n`, `d`, `?` and `/` used to leave its screen with the feed still sampling the
    /// beacon unseen (a later `c` started over; nothing said the wizard had gone on).
    static let screenSwitches: Set<MonitorAction> = [.toggleEventLog, .toggleHealth, .toggleScannerList, .toggleDeviceList, .toggleHelp, .beginFilter]

    private mutating func leaveCalibration() -> (Reaction, MonitorCommand?) {
        screen = .table
        return ([.redraw, .command], .cancelCalibration)
    }

    private mutating func saveCalibration() -> (Reaction, MonitorCommand?) {
        guard let progress = snapshot.calibration, progress.isComplete, let power = progress.measuredPower else {
            return ([], nil)
        }
        return (.command, .saveCalibration(progress.identity, measuredPower: Int(power.rounded())))
    }

    /// The view model the renderer draws. Only the lists the shown screen draws are narrowed (and
    /// the rows sorted); the others are empty (the health view's transmitters: whole): every frame
    /// filtered every list, the 500 lines of an event log narrowed on the table lower-cased too.
    /// The rows are drawn by the table, detail pane and wizard, and counted in the title of every
    /// screen that is no list of its own (help, event log).
    public func viewModel() -> MonitorViewModel {
        let shownDevice = screen == .deviceDetail ? selectedDevice.map { id in
            let device = snapshot.devices.first { $0.id == id }
            return ShownDevice(id: id, device: device, lastKnown: device == nil && lastKnownDevice?.id == id ? lastKnownDevice : nil)
        } : nil
        let listsOwnCount: Set<MonitorScreen> = [.health, .scanners, .devices, .deviceDetail]
        let rows = listsOwnCount.contains(screen) ? [] : visibleRows
        let devices = screen == .devices || screen == .deviceDetail ? visibleDevices : []
        let scanners = screen == .scanners ? visibleScanners : []
        let events = screen == .events ? visibleEvents : []
        return MonitorViewModel(
            title: snapshot.title, rows: rows, totalRowCount: snapshot.rows.count,
            selectedIndex: shownIndex(in: rows), goneBeacon: goneBeacon(in: rows), nearest: snapshot.nearest, source: snapshot.source,
            screen: screen, sort: sort, filterText: filterText, isEditingFilter: isEditingFilter,
            activeFilter: snapshot.activeFilter, events: events, totalEventCount: snapshot.events.count,
            calibration: snapshot.calibration, keyBindings: keyMap.bindings, health: screen == .health ? visibleHealth : snapshot.health,
            totalTransmitterCount: snapshot.health.transmitters.count,
            scanners: scanners, totalScannerCount: snapshot.scanners.count, devices: devices,
            totalDeviceCount: snapshot.devices.count, screenFilterText: screenFilters[screen == .deviceDetail ? .devices : screen],
            selectedDeviceIndex: selectedDeviceIndex(in: devices),
            shownDevice: shownDevice,
            scroll: screen == .events && followsLog ? Int.max : scroll,
            scrollAnchor: screen == .events && followsLog ? nil : anchor
        )
    }
}
