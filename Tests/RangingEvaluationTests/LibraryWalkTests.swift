import Foundation
import Testing
import TestFixtures
import Ranging
@testable import RangingEvaluation

/// Issue 9's real walk with labelled positions (`Tests/LibraryWalk`, the UCI library floor): the
/// target is beacontop's first beacon right at least as often as the raw strongest RSSI. The
/// issue's 73.0% for the raw strongest reproduces exactly with its ties (`LibraryWalkEvaluation`);
/// beacontop does not meet the target (docs/ranging.md, "A real walk with labelled positions").
@Suite struct LibraryWalkTests {
    static let file = SharedData.repositoryRoot.appendingPathComponent("Tests/LibraryWalk/iBeacon_RSSI_Labeled.csv")
    static let walk = try! LibraryWalk(contentsOf: file)

    @Test func theFileIsTheDatasetsLabelledWalk() throws {
        let bytes = try Data(contentsOf: Self.file)
        #expect(bytes.count == 124_713)
        #expect(Self.walk.rowCount == 1420)
        #expect(Self.walk.sessions.map(\.day) == ["10-18-2016", "10-04-2016", "10-03-2016", "9-27-2016", "9-21-2016", "9-19-2016",
                                                  "08-04-2016", "7-21-2016", "5-25-2016", "4-20-2016", "4-19-2016"])
        for session in Self.walk.sessions {
            #expect(zip(session.rows, session.rows.dropFirst()).allSatisfy { $0.time < $1.time }, "\(session.day)")
        }
    }

    @Test func rowsParseWithTheirUnheardCodesAndMinuteOnlyTimes() throws {
        let walk = try LibraryWalk(csv: """
            location,date,b3001,b3002,b3003,b3004,b3005,b3006,b3007,b3008,b3009,b3010,b3011,b3012,b3013\r
            I04,10-18-2016 11:01:14,-75,-198,-200,-200,-200,-200,-200,-200,-200,-200,-200,-200,-200\r
            J08,08-04-2016 13:10,-200,-200,-200,-200,-74,-200,-200,-200,-200,-200,-200,-200,-200\r
            J08,08-04-2016 13:10,-200,-200,-200,-200,-72,-200,-200,-79,-200,-200,-200,-200,-200\r
            J07,08-04-2016 13:09,-200,-81,-200,-200,-73,-200,-200,-200,-200,-200,-200,-200,-200\r

            """)
        #expect(walk.sessions.count == 2)
        let first = walk.sessions[0].rows[0]
        #expect(first.rssi[0] == -75 && first.rssi[1] == nil && first.rssi[2] == nil)
        #expect(first.time == 39_674)  // 11:01:14
        // Newest first in the file; one minute's rows spread evenly over it, in file order.
        let minuteOnly = walk.sessions[1].rows
        #expect(minuteOnly.map(\.cell.description) == ["J07", "J08", "J08"])
        let times: [Double] = [47_370, 47_415, 47_445]  // 13:09:30, 13:10:15, 13:10:45
        #expect(minuteOnly.map(\.time) == times)
        #expect(throws: LibraryWalkError.self) { try LibraryWalk(csv: "header\nJ08,08-04-2016,-200\n") }
    }

    @Test func equallyNearBeaconsAreAllNearest() {
        // L05 lies as far from b3002 (J04) as from b3003 (N04).
        #expect(LibraryWalk.nearestBeacons(to: LibraryWalk.Cell("L05")!) == [1, 2])
        #expect(LibraryWalk.nearestBeacons(to: LibraryWalk.Cell("W15")!) == [12])
        #expect(LibraryWalk.nearestBeacons(to: LibraryWalk.Cell("R05")!, cells: LibraryWalk.beaconCellsShifted) == [3])
    }

    @Test func theIssuesFiguresAndTheTarget() {
        let evaluation = LibraryWalkEvaluation(Self.walk, field: [])
        #expect(evaluation.rawStrongest.scored == 1420)
        // The issue's 73.0%, exactly.
        #expect(evaluation.rawStrongest.right == 1037)
        // The issue's 70.4% (1000 ticks) for the first beacon of the tick was the closest by
        // distance; the list now starts with `nearest`, so the first beacon is right as often: 72.0%.
        #expect(evaluation.beacontopFirst.right == 1022)
        #expect(evaluation.beacontopNearest.right == 1022)
        withKnownIssue("beacontop's first beacon is right less often than the raw strongest (docs/ranging.md)") {
            #expect(evaluation.beacontopFirst.right >= evaluation.rawStrongest.right)
        }
    }

    /// The twelfth round's options (docs/ranging-history.md), first beacon and `nearest` right of
    /// 1420 (the same now: the list starts with `nearest`): none reaches the raw strongest's 1037,
    /// and none is the default.
    @Test func theTwelfthRoundsOptions() {
        func rights(cusum: AdaptiveKalmanRSSIFilter.ThresholdRule, silentRank: Double?) -> [Int] {
            var configuration = RangingConfiguration()
            configuration.adaptiveFilter.thresholdRule = cusum
            configuration.silentRankLevel = silentRank
            let evaluation = LibraryWalkEvaluation(Self.walk, configuration: configuration, field: [])
            return [evaluation.beacontopFirst.right, evaluation.beacontopNearest.right]
        }
        #expect(rights(cusum: .perSecond, silentRank: nil) == [1022, 1022])
        #expect(rights(cusum: .perSample, silentRank: 0.01) == [1028, 1028])
        #expect(rights(cusum: .perSecond, silentRank: 0.01) == [1028, 1028])
    }

    /// The thirteenth round's options (docs/ranging-history.md) on 10-18-2016, the day they were
    /// qualified on (first beacon and `nearest` right of 600; shipped 390): A, the silence against
    /// the beacon's own gaps, gains 12; C, the stand-ins within `staleAfter`, loses 3. None
    /// qualified (A lost the real-trace walks), none is the default; the other days were not scored.
    @Test func theThirteenthRoundsOptionsOnTheDayTheyQualifiedOn() {
        var day = Self.walk
        day.sessions = day.sessions.filter { $0.day == "10-18-2016" }
        func rights(ownGaps: Bool, memory: NearestMemory) -> [Int] {
            var configuration = RangingConfiguration()
            if ownGaps {
                configuration.silentRankLevel = 0.05
                configuration.silentRankRule = .ownGaps
            }
            configuration.nearestMemory = memory
            let evaluation = LibraryWalkEvaluation(day, configuration: configuration, field: [])
            return [evaluation.beacontopFirst.right, evaluation.beacontopNearest.right]
        }
        #expect(rights(ownGaps: false, memory: .untilForgotten) == [390, 390])
        #expect(rights(ownGaps: true, memory: .untilForgotten) == [402, 402])
        #expect(rights(ownGaps: false, memory: .staleAfter) == [387, 387])
        #expect(rights(ownGaps: true, memory: .staleAfter) == [398, 398])
    }

    /// The fifteenth round's A (docs/ranging-history.md), the nearest level's stand-ins in time
    /// (`NearestMemory.oneInterval`): first beacon and `nearest` right on 10-18-2016 (it qualified
    /// there: 390 -> 398 of 600) and on the whole walk, held out (1022 -> 1009 of 1420, the other
    /// ten days 632 -> 611 of 820), so it is not the default.
    @Test func theFifteenthRoundsOption() {
        var configuration = RangingConfiguration()
        configuration.nearestMemory = .oneInterval
        let evaluation = LibraryWalkEvaluation(Self.walk, configuration: configuration, field: [])
        let whole: [Int] = [evaluation.beacontopFirst.right, evaluation.beacontopNearest.right]
        #expect(whole == [1009, 1009])
        var day = Self.walk
        day.sessions = day.sessions.filter { $0.day == "10-18-2016" }
        let onTheDay = LibraryWalkEvaluation(day, configuration: configuration, field: [])
        let qualifying: [Int] = [onTheDay.beacontopFirst.right, onTheDay.beacontopNearest.right]
        #expect(qualifying == [398, 398])
    }
}
