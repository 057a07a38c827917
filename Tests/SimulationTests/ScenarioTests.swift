import BeaconFormats
import Testing
@testable import Simulation

/// The walker's plans: the museum walk must be exactly issue 3's description, the trade show a
/// plausible booth crawl, and poses must move continuously.
@Suite struct ScenarioTests {
    @Test func theMuseumHasTenExhibitsSomeTwoMetresApart() {
        let beacons = MuseumScenario.beacons
        #expect(beacons.count == 10)
        #expect(Set(beacons.map(\.identity)).count == 10)
        #expect(Set(beacons.map(\.address)).count == 10)
        #expect(Set(beacons.map(\.frame.uuid)) == [MuseumScenario.uuid])
        var pairsTwoMetresApart = 0
        for i in beacons.indices {
            for j in beacons.indices where j > i {
                let d = beacons[i].position.distance(to: beacons[j].position)
                #expect(d >= 2 - 1e-9, "\(beacons[i].name) and \(beacons[j].name) are \(d) m apart")
                if abs(d - 2) < 1e-9 { pairsTwoMetresApart += 1 }
            }
        }
        #expect(pairsTwoMetresApart >= 3)
    }

    @Test(arguments: UInt64(1)...UInt64(25))
    func theMuseumWalkMatchesIssue3(seed: UInt64) throws {
        let scenario = MuseumScenario.make(seed: seed)
        let stays = scenario.plan.stays
        #expect(stays.map(\.beaconIndex) == Array(0..<10), "every exhibit once, in catalog order")
        for (leg, start) in zip(scenario.plan.legs, scenario.plan.legStarts) {
            if let exhibit = leg.visiting {
                let position = scenario.beacons[exhibit].position
                #expect((10...25).contains(leg.duration))
                #expect((0.6 - 1e-9...1.2 + 1e-9).contains(leg.from.distance(to: position)))
                #expect(leg.facing.dot((position - leg.from).unit!) > 0.999, "faces the exhibit")
                let truth = GroundTruth.sample(scenario, at: start + leg.duration / 2)
                #expect(truth.nearest == exhibit && truth.visiting == exhibit)
            } else {
                let speed = leg.from.distance(to: leg.to) / leg.duration
                #expect((1.0 - 1e-9...1.4 + 1e-9).contains(speed))
            }
        }
        #expect(scenario.plan.legs.first?.from == Point2D(8, 0))
        #expect(scenario.plan.legs.last?.to == Point2D(8, 0), "the tour ends at the door, so it loops")
    }

    @Test func theTradeShowSkipsSomeBoothsAndComesBackToOne() {
        let scenario = TradeShowScenario.make(seed: 3)
        let visited = scenario.plan.stays.map(\.beaconIndex)
        #expect(visited.count == 7)
        #expect(Set(visited).count == 6, "two booths skipped, one visited twice")
        #expect(visited.first == visited.last)
        let lengths = scenario.plan.stays.map { $0.end - $0.start }
        #expect(lengths.allSatisfy { (8...120).contains($0) })
        #expect(lengths.max()! - lengths.min()! > 30, "stays vary from a glance to a chat")
        for stay in scenario.plan.stays {
            #expect(GroundTruth.sample(scenario, at: (stay.start + stay.end) / 2).nearest == stay.beaconIndex)
        }
    }

    @Test func posesInterpolateAlongLegsAndLoop() {
        let plan = WalkPlan(legs: [
            .walk(from: Point2D(0, 0), to: Point2D(4, 0), speed: 2),
            .stay(at: Point2D(4, 0), facing: Point2D(0, 3), duration: 10, visiting: 0),
            .walk(from: Point2D(4, 0), to: Point2D(0, 0), speed: 1),
        ])
        #expect(plan.duration == 16)
        #expect(plan.pose(at: 1).position == Point2D(2, 0))
        #expect(plan.pose(at: 1).heading == Point2D(1, 0) && plan.pose(at: 1).visiting == nil)
        #expect(plan.pose(at: 5).position == Point2D(4, 0) && plan.pose(at: 5).visiting == 0)
        #expect(plan.pose(at: 5).heading == Point2D(0, 1))
        #expect(plan.pose(at: 14).position == Point2D(2, 0) && plan.pose(at: 14).heading == Point2D(-1, 0))
        #expect(plan.pose(at: 17, looping: true).position == Point2D(2, 0))
        #expect(plan.pose(at: 17).position == Point2D(0, 0), "without looping, the end holds")
        #expect(plan.stays == [Stay(beaconIndex: 0, start: 2, end: 12)])
        #expect(plan.pose(at: -3).position == Point2D(0, 0))
    }

    @Test func aLoopingSimulatorKeepsGoingAndItsStaysRepeat() {
        let scenario = MuseumScenario.make(seed: 5)
        var simulator = RadioSimulator(scenario: scenario, seed: 5, looping: true)
        var last = 0.0
        while let r = simulator.next() {
            last = r.advertisement.timestamp - scenario.startTime
            if last > scenario.duration * 2.5 { break }
        }
        #expect(last > scenario.duration * 2.5)
        let stays = GroundTruth.stays(scenario, duration: scenario.duration * 2.5, looping: true)
        let thirdTour = scenario.plan.stays.filter { $0.start < scenario.duration / 2 }.count
        #expect(stays.count == 20 + thirdTour)
        #expect(stays.last!.end <= scenario.startTime + scenario.duration * 2.5 + 1e-6)
        #expect(stays[10].beaconIndex == 0 && abs(stays[10].start - stays[0].start - scenario.duration) < 1e-6)
    }

    @Test func aStaticRandomAddressHasItsTopBitsSet() {
        for beacon in MuseumScenario.beacons + TradeShowScenario.beacons {
            #expect(beacon.address.rawValue >> 46 == 0b11)
        }
    }
}

@Suite struct VenueStyleTests {
    @Test func eachStyleBuildsItsBuiltInVenue() {
        #expect(VenueStyle.museum.scenario(seed: 4) == MuseumScenario.make(seed: 4))
        #expect(VenueStyle.tradeshow.scenario(seed: 4) == TradeShowScenario.make(seed: 4))
        #expect(VenueStyle.museum.builtInBeacons.allSatisfy { $0.advertisingInterval == VenueStyle.museum.advertisingInterval })
        #expect(VenueStyle.tradeshow.builtInBeacons.allSatisfy { $0.advertisingInterval == VenueStyle.tradeshow.advertisingInterval })
        #expect(VenueStyle.tradeshow.scenario(seed: 4).radio == .tradeShow)
        #expect(VenueStyle(rawValue: "tradeshow") == .tradeshow && VenueStyle(rawValue: "fair") == nil)
    }

    @Test func aCustomTitleAndBeaconListAreKept() {
        let beacons = Array(MuseumScenario.beacons.prefix(3))
        let scenario = VenueStyle.museum.scenario(beacons: beacons, title: "Side room", seed: 2)
        #expect(scenario.title == "Side room" && scenario.beacons == beacons)
        #expect(scenario.plan.stays.map(\.beaconIndex) == [0, 1, 2])
    }
}
