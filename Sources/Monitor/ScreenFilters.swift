import Survey

/// `/` on a list that is not the table (the health view, the scanner and device lists, the event
/// log): each screen's own text, kept while the keys switch between screens. A person narrows the
/// screen in front of them, as in `htop`, `k9s` and `less`'s `&pattern`: before, `/` on those
/// screens went back to the table and filtered that. One text a screen, not one for all: the lists
/// hold different things (`/irk` kept for the table would leave it saying no beacon matches;
/// `/Rosetta` typed on the log would empty the scanner list). The table's own filter is
/// `MonitorState.filterText` (a `RowFilter`: text, or a region `UUID[:major[:minor]]`).
public struct ScreenFilters: Sendable, Equatable {
    /// The screens whose `/` filters themselves. The help, the detail pane and the calibration
    /// wizard show no list of their own: they send `/` to the table; a device's detail sends it to
    /// the device list (docs/screen.md).
    public static let screens: Set<MonitorScreen> = [.health, .scanners, .devices, .events]

    private var texts: [MonitorScreen: String] = [:]

    public init() {}

    /// The text typed on `screen` (empty on a screen with none).
    public subscript(screen: MonitorScreen) -> String {
        get { texts[screen] ?? "" }
        set { texts[screen] = newValue }
    }

    /// What `screen`'s text matches: lowercased, without the spaces around it (`/irk ` matches as
    /// `irk`); empty matches everything.
    func needle(on screen: MonitorScreen) -> String {
        RowFilter.trimmed(self[screen]).lowercased()
    }

    /// `items` narrowed by `screen`'s text: those `matches(item, needle)` keeps, in their order.
    func narrow<Item>(_ items: [Item], on screen: MonitorScreen, _ matches: (Item, String) -> Bool) -> [Item] {
        let needle = needle(on: screen)
        return needle.isEmpty ? items : items.filter { matches($0, needle) }
    }
}

extension BeaconHealth {
    /// `/` on the health view: `needle` (lowercased, trimmed) is in its name, one of its ids or its
    /// address, in any case: what tells its lines apart (`/c2:35`; `/:62207`, one identity sent
    /// from two addresses). Not its findings' words: those are sentences, not names.
    func matches(_ needle: String) -> Bool {
        name.lowercased().contains(needle) || address.description.lowercased().contains(needle)
            || identities.contains { $0.description.lowercased().contains(needle) }
    }
}
