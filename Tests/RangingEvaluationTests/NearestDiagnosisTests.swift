import BeaconFormats
import Simulation
import Testing
@testable import RangingEvaluation

/// `NearestDiagnosis` on a walk whose every tick is written by hand: each class counted where the
/// walk puts it, nothing else.
@Suite struct NearestDiagnosisTests {
    /// Three exhibits on a wall (A at 0 m, C at 1 m, B at 2 m), the visitor 1 m in front: at A for
    /// 10 s, walking past C for 3 s, at B for 10 s.
    static func walk(packets: [WalkRecording.Packet] = []) -> WalkRecording {
        let exhibits = [(0.0, "A"), (2.0, "B"), (1.0, "C")].enumerated().map { index, spot in
            WalkRecording.Exhibit(identity: WalkRecording.identity(index), x: spot.0, y: 0, claimedPower: -59)
        }
        return WalkRecording(
            title: "by hand", exhibits: exhibits, packets: packets,
            stays: [Stay(beaconIndex: 0, start: 0, end: 10), Stay(beaconIndex: 1, start: 13, end: 23)],
            start: 0, end: 23,
            position: { time in (time <= 10 ? 0 : time >= 13 ? 2 : (time - 10) * 2 / 3, 1) }
        )
    }

    static let a = WalkRecording.identity(0), b = WalkRecording.identity(1), c = WalkRecording.identity(2)

    @Test func eachClassWhereTheWalkPutsIt() {
        // A from 1 s; B for 6-7 s (mid-stay, away and back); C at 11-15 s while walking past it and
        // on B's first scored tick (an arrival miss); B from 16 s.
        var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        for time in stride(from: 1.0, through: 23, by: 1) {
            let nearest = switch time {
            case 6, 7: Self.b
            case 11...15: Self.c
            case 16...: Self.b
            default: Self.a
            }
            ticks.append((time, nearest))
        }
        let diagnosis = NearestDiagnosis(Self.walk(), ticks: ticks)
        #expect(diagnosis.stayTicks == 9 + 9)
        #expect(diagnosis.midStayMisses == 2)
        #expect(diagnosis.arrivalMisses == 1)
        #expect(diagnosis.wholeStays == 0)
        #expect(diagnosis.misses == 3)
        #expect(diagnosis.moves == 1)
        #expect(diagnosis.midStayChanges == 2)
        #expect(diagnosis.passThroughChanges == 1)
        #expect(diagnosis.neededChanges == 1)
        #expect(diagnosis.walkingFlickers == 0)
        #expect(diagnosis.arrivalDelays == [1, 3])
    }

    @Test func aWholeStayIsSplitByWhatTheRSSISays() {
        // C named for all of B's stay; C's packets the louder in one walk, B's in the other.
        let ticks: [(time: Double, nearest: BeaconIdentity?)] = stride(from: 1.0, through: 23, by: 1).map { ($0, $0 <= 10 ? Self.a : Self.c) }
        func packets(b: Int, c: Int) -> [WalkRecording.Packet] {
            stride(from: 15.0, through: 23, by: 0.5).flatMap { [WalkRecording.Packet(time: $0, exhibit: 1, rssi: b), .init(time: $0, exhibit: 2, rssi: c)] }
        }
        let neighbourLouder = NearestDiagnosis(Self.walk(packets: packets(b: -65, c: -60)), ticks: ticks)
        #expect(neighbourLouder.wholeStays == 1)
        #expect(neighbourLouder.wholeStayNeighbourLouder == 9)
        #expect(neighbourLouder.wholeStayVisitedLouder == 0)
        let visitedLouder = NearestDiagnosis(Self.walk(packets: packets(b: -60, c: -65)), ticks: ticks)
        #expect(visitedLouder.wholeStayVisitedLouder == 9)
        #expect(visitedLouder.wholeStayNeighbourLouder == 0)
        // C took over while walking and was geometrically nearest on the way: a pass-through.
        #expect(visitedLouder.passThroughChanges == 1 && visitedLouder.neededChanges == 0)
    }
}
