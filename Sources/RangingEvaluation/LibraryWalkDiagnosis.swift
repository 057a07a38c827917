/// Where beacontop's first beacon and the raw strongest RSSI part on the library walk, by cause
/// (issue ties throughout: `LibraryWalkEvaluation`). Each tick where exactly one of the two is
/// right is sorted by what beacontop's pick was in that row:
/// - `tie`: one of the row's equally strongest beacons (the tie broken another way);
/// - `unheard`: not heard in the row at all (its level is memory of earlier rows);
/// - `weaker`: heard in the row, but weaker than its strongest (the filter's history outweighs it);
/// and by whether the labelled cell changed within the `recent` seconds before the row (a move).
public struct LibraryWalkDiagnosis: Sendable {
    public enum Cause: String, CaseIterable, Sendable { case tie, unheard, weaker, none }

    public struct Count: Sendable {
        public var afterMove = 0
        public var standing = 0
        public var total: Int { afterMove + standing }
    }

    /// Ticks where the raw strongest is right and beacontop's first beacon is not, by cause.
    public var beacontopWrong: [Cause: Count] = [:]
    /// Ticks where beacontop's first beacon is right and the raw strongest is not, by cause.
    public var beacontopRight: [Cause: Count] = [:]

    public init(_ evaluation: LibraryWalkEvaluation, recent: Double = 6) {
        var lastCell: (session: Int, cell: LibraryWalk.Cell, changed: Double)?
        for tick in evaluation.ticks {
            if lastCell?.session != tick.session { lastCell = (tick.session, tick.row.cell, -.infinity) }
            if lastCell!.cell != tick.row.cell { lastCell = (tick.session, tick.row.cell, tick.row.time) }
            let moved = tick.row.time - lastCell!.changed <= recent
            let truth = tick.nearest[0]
            let rawRight = tick.strongest.first == truth
            let topRight = tick.first == truth
            guard rawRight != topRight else { continue }
            let cause: Cause
            if let pick = tick.first {
                if tick.strongest.contains(pick) { cause = .tie }
                else if tick.row.rssi[pick] == nil { cause = .unheard }
                else { cause = .weaker }
            } else { cause = .none }
            if rawRight { beacontopWrong[cause, default: Count()].add(moved) } else { beacontopRight[cause, default: Count()].add(moved) }
        }
    }
}

extension LibraryWalkDiagnosis.Count {
    mutating func add(_ moved: Bool) { if moved { afterMove += 1 } else { standing += 1 } }
}
