import BeaconFormats
import Foundation
import HCI
import Ranging

/// Ranges the library walk (`LibraryWalk`) with beacontop and the field's pipelines and scores
/// each one's pick of the nearest beacon against the geometry, as issue 9 does.
///
/// Protocol: each row's heard beacons are one iBeacon packet each at the row's time, all 13 with
/// the same measured power (-59 dBm, beacontop's default: nobody calibrated them). Every recording
/// day is its own session with a fresh engine and fresh pipelines (days apart, the phone's app was
/// restarted); within a day the engine ticks every second of capture time through the gaps, as a
/// running monitor would. A tick is scored when a row arrived since the tick before, against the
/// latest such row: its labelled cell is the truth and its strongest RSSI is the raw strongest.
/// beacontop's pick is the first beacon of the tick (the list's top line) and, beside it,
/// `nearest`; a field pipeline's pick is its smallest distance among the beacons heard in the last
/// `staleAfter`, as its app shows it.
///
/// Ties, counted two ways: the protocol (reproduced exactly for the raw strongest: 73.0%)
/// takes the lowest-numbered beacon among equally strong ones and among equally near ones, and a
/// pick is right when the two agree; "any nearest" counts a pick right when it is any of the
/// equally near beacons (the raw strongest still taking its lowest-numbered beacon).
public struct LibraryWalkEvaluation: Sendable {
    public struct Tally: Sendable {
        public var right = 0
        public var rightAnyNearest = 0
        public var scored = 0

        public var share: Double { scored == 0 ? .nan : Double(right) / Double(scored) }
        public var shareAnyNearest: Double { scored == 0 ? .nan : Double(rightAnyNearest) / Double(scored) }

        mutating func add(pick: Int?, nearest: [Int]) {
            scored += 1
            guard let pick else { return }
            if pick == nearest[0] { right += 1 }
            if nearest.contains(pick) { rightAnyNearest += 1 }
        }
    }

    /// One scored tick.
    public struct Tick: Sendable {
        public var session: Int
        public var row: LibraryWalk.Row
        public var nearest: [Int]
        public var strongest: [Int]
        public var first: Int?
        public var engineNearest: Int?
    }

    public var cells: [LibraryWalk.Cell]
    public var beacontopFirst = Tally()
    public var beacontopNearest = Tally()
    public var rawStrongest = Tally()
    public var field: [FieldPipeline.Kind: Tally] = [:]
    public var ticks: [Tick] = []

    public static let measuredPower = -59

    public static func identity(_ index: Int) -> BeaconIdentity {
        .iBeacon(uuid: UUIDBytes("3A0F1B2C-0D4E-4F50-9A61-B3001B3013AA")!, major: 1, minor: UInt16(3001 + index))
    }

    /// The one iBeacon packet a row's reading of `beacon` (0 = b3001) stands for.
    public static func sighting(beacon: Int, rssi: Int, at time: Double) -> Sighting {
        Sighting(time: time, identity: identity(beacon), measuredPower: measuredPower,
                 address: BDAddress(rawValue: 0xC000_0000_3001 + UInt64(beacon)), rssi: rssi)
    }

    public init(_ walk: LibraryWalk, cells: [LibraryWalk.Cell] = LibraryWalk.beaconCells,
                configuration: RangingConfiguration = RangingConfiguration(), field kinds: [FieldPipeline.Kind] = FieldPipeline.Kind.allCases) {
        self.cells = cells
        let index = Dictionary(uniqueKeysWithValues: (0..<cells.count).map { (Self.identity($0), $0) })
        for (number, session) in walk.sessions.enumerated() {
            guard let start = session.rows.first?.time else { continue }
            var engine = RangingEngine(configuration: configuration)
            var pipelines = kinds.map { kind in (0..<cells.count).map { _ in FieldPipeline(kind, measuredPower: Double(Self.measuredPower)) } }
            var lastHeard = [Double](repeating: -.infinity, count: cells.count)
            var next = start.rounded(.down) + 1
            var pending: LibraryWalk.Row?
            func tick() {
                let snapshot = engine.tick(at: next)
                defer { next += 1 }
                guard let row = pending else { return }
                pending = nil
                let nearest = LibraryWalk.nearestBeacons(to: row.cell, cells: cells)
                let strongest = LibraryWalk.strongest(row)
                let first = snapshot.beacons.first.flatMap { index[$0.identity] }
                let chosen = snapshot.nearest.flatMap { index[$0] }
                beacontopFirst.add(pick: first, nearest: nearest)
                beacontopNearest.add(pick: chosen, nearest: nearest)
                rawStrongest.add(pick: strongest.first, nearest: nearest)
                for (k, kind) in kinds.enumerated() {
                    var best: (beacon: Int, distance: Double)?
                    for beacon in cells.indices where next - lastHeard[beacon] <= configuration.staleAfter {
                        guard let estimate = pipelines[k][beacon].estimate(at: next) else { continue }
                        if best == nil || estimate.distance < best!.distance { best = (beacon, estimate.distance) }
                    }
                    field[kind, default: Tally()].add(pick: best?.beacon, nearest: nearest)
                }
                ticks.append(Tick(session: number, row: row, nearest: nearest, strongest: strongest, first: first, engineNearest: chosen))
            }
            for row in session.rows {
                while row.time >= next { tick() }
                for (beacon, rssi) in row.rssi.enumerated() {
                    guard let rssi else { continue }
                    engine.record(Self.sighting(beacon: beacon, rssi: rssi, at: row.time))
                    for k in kinds.indices { pipelines[k][beacon].add(rssi: Double(rssi), at: row.time) }
                    lastHeard[beacon] = row.time
                }
                pending = row
            }
            tick()
        }
    }
}
