import BeaconFormats
import Testing
@testable import Simulation

@Suite struct NearestExhibitScoreTests {
    let ids: [BeaconIdentity] = (1...3).map { .iBeacon(uuid: MuseumScenario.uuid, major: 1, minor: UInt16($0)) }

    @Test func sharesCountOnlyTicksAfterTheSettlingTime() {
        let stays = [Stay(beaconIndex: 0, start: 0, end: 10), Stay(beaconIndex: 1, start: 14, end: 24)]
        var ticks: [(time: Double, nearest: BeaconIdentity?)] = []
        for t in 0...24 {
            let time = Double(t)
            switch time {
            case 0...10: ticks.append((time, ids[0]))
            case 11...14: ticks.append((time, nil)) // walking: nothing near
            case 15: ticks.append((time, ids[0])) // inside the 2 s settling time: not scored
            case 20: ticks.append((time, ids[2])) // a flicker to the wrong exhibit
            default: ticks.append((time, ids[1]))
            }
        }
        let score = NearestExhibitScore(stays: stays, identities: ids, ticks: ticks)
        #expect(score.stays[0].ticks == 9 && score.stays[0].correct == 9) // t = 2...10
        #expect(score.stays[1].ticks == 9 && score.stays[1].correct == 8) // t = 16...24
        #expect(score.misses == [.init(time: 20, expected: ids[1], reported: ids[2])])
        #expect(score.moves == 1)
        // ids0 -> (nil) -> ids0 (no change) -> ids1 -> ids2 -> ids1: three switches.
        #expect(score.changes == 3 && score.changesPerMove == 3)
        #expect(abs(score.overallShare - 17.0 / 18) < 1e-12)
        #expect(score.worstStay?.exhibit == ids[1])
    }

    @Test func aPerfectEngineScoresOneChangePerMove() {
        let stays = [Stay(beaconIndex: 0, start: 0, end: 10), Stay(beaconIndex: 1, start: 12, end: 20),
                     Stay(beaconIndex: 2, start: 23, end: 30)]
        let ticks: [(time: Double, nearest: BeaconIdentity?)] = (0...30).map { t in
            let time = Double(t)
            return (time, time <= 11 ? ids[0] : time <= 22 ? ids[1] : ids[2])
        }
        let score = NearestExhibitScore(stays: stays, identities: ids, ticks: ticks)
        #expect(score.changesPerMove == 1 && score.overallShare == 1 && score.misses.isEmpty)
    }
}
