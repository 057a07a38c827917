import Ranging
import Simulation
import Testing
import TestFixtures
import Venue
@testable import VenueSimulation

/// The presence targets of issue 11 on the simulated venue: 8 rooms with a scanner each, 30
/// walkers, receivers off by up to +-8 dB (learnt from reference beacons, never given), one scanner
/// failing half-way. The rule's parameters were chosen on seeds 1-4 (`beacontop-bench
/// venue-presence --seeds 1-4`); these held-out seeds chose nothing. Measured with today's
/// defaults: 95.8% right room over seeds 101-108 (93.7-97.7% per seed), 1.04 changes per true
/// change (0.94-1.18), no walker placed in the failed scanner's room 30 s after it died.
@Suite("Presence targets on the simulated venue (held-out seeds)", .onComputationThread)
struct SimulatedVenueTests {
    static let heldOut: [UInt64] = Array(101...108)

    @Test("Right room on at least 95% of dwell ticks, at most 1.2 changes per true change, nobody in the dead scanner's room after 30 s")
    func targets() {
        // One seed after another: on two cores, eight at once starved the suites that time a
        // controller's answer.
        let scores = Self.heldOut.map { VenuePresenceScore.score(SimulatedVenue(seed: $0)) }
        let total = scores.reduce(VenuePresenceScore(), +)
        #expect(total.dwellTicks > 100_000 && total.trueChanges > 2_000, "the runs cover real movement")
        #expect(total.rightShare >= 0.95, "right room on \(total.rightShare) of dwell ticks")
        #expect(total.changesPerTrueChange <= 1.2, "\(total.changesPerTrueChange) changes per true change")
        #expect(total.failedRoomTicks == 0)
        #expect(scores.allSatisfy { $0.changesPerTrueChange <= 1.2 && $0.failedRoomTicks == 0 })
    }

    @Test("The venue is what the targets ask for: 8 scanners, 30 walkers, offsets up to 8 dB, one failure mid-run")
    func shape() {
        let venue = SimulatedVenue(seed: 101)
        #expect(venue.scanners.count == 8 && venue.walks.count == 30)
        #expect(venue.scanners.allSatisfy { abs($0.offset) <= 8 })
        #expect(venue.scanners.map(\.offset).max()! - venue.scanners.map(\.offset).min()! > 8, "receivers really differ")
        #expect(venue.failure?.time == 300)
        let readings = venue.readings()
        let failed = venue.scanners[venue.failure!.scanner].name
        #expect(readings.contains { $0.scanner == failed && $0.time < 300 })
        #expect(!readings.contains { $0.scanner == failed && $0.time > 300 + SimulatedVenue.publishLatency })
        #expect(zip(readings, readings.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    /// Seed 101: 96.2% right room with the learnt offsets, 93.4% without.
    @Test("Without the learnt offsets the same rule does worse: the offsets are doing work")
    func offsetsMatter() {
        let venue = SimulatedVenue(seed: 101)
        var catalog = venue.catalog
        for index in catalog.scanners.indices { catalog.scanners[index].referenceBeacon = nil }
        let with = VenuePresenceScore.score(venue)
        let without = VenuePresenceScore.score(venue, catalog: catalog)
        #expect(without.dwellTicks == with.dwellTicks)
        #expect(without.rightShare < with.rightShare - 0.02, "without offsets \(without.rightShare), with \(with.rightShare)")
    }
}
