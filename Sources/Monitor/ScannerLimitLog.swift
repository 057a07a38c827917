import Venue

/// What the event log has said of the venue view's limit on scanners not in the catalog
/// (`PresenceSettings.unlistedScannerLimit`, docs/venue.md "Invented scanner names"): a name
/// refused, and a silent scanner forgotten to make room, each said once, not per message (a
/// renaming firmware or a flood would fill the log). Also tells a scanner gone from the view
/// because it was forgotten from one whose retained status was deleted (only that one is logged).
struct ScannerLimitLog: Sendable {
    private var forgotten = 0
    private var retired = 0
    private var saidRefused = false
    private var saidForgotten = false

    /// The lines to log for `registry` as it is now, and whether the scanners gone from it since
    /// the last call were retired (else forgotten: not logged one by one). After a seek back
    /// (`rebuilt`) the registry is taken as it is, unlogged, as the scanners' other lines are.
    mutating func update(_ registry: ScannerRegistry, limit: Int, rebuilt: Bool) -> (lines: [String], goneAreRetired: Bool) {
        defer {
            forgotten = registry.forgotten
            retired = registry.retired
        }
        if rebuilt {
            saidRefused = registry.refusedMessages > 0
            saidForgotten = registry.forgotten > 0
            return ([], true)
        }
        var lines: [String] = []
        if !saidRefused, let name = registry.firstRefused {
            saidRefused = true
            lines.append("scanner \(name) refused: \(limit) scanners not in the catalog are known and all alive; a new name is refused"
                         + " until one falls silent, counted with the malformed messages (said once; list the venue's scanners in the catalog)")
        }
        if !saidForgotten, registry.forgotten > forgotten, let gone = registry.lastForgotten {
            saidForgotten = true
            lines.append("scanner \(gone.name) forgotten: the view keeps \(limit) scanners not in the catalog, and a new name takes"
                         + " the place of the one silent longest (said once)")
        }
        // Both at once (a status deleted in the same snapshot as a flood's forgetting) is taken as
        // retired: a line too many rather than a retirement unsaid.
        return (lines, registry.forgotten == forgotten || registry.retired > retired)
    }
}
