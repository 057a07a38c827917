import Synchronization
import Testing
@testable import Simulation

/// A clock whose sleeps return at once and move its time to the deadline, recording each one:
/// pacing is checked as data, without waiting.
final class SteppingClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .seconds(100)), []))
    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        state.withLock { s in
            s.sleeps.append(deadline.offset - s.now.offset)
            if deadline > s.now { s.now = deadline }
        }
    }
}

@Suite struct PacedSimulationTests {
    @Test func advertisementsArriveAtTheirSimulatedTimesScaledBySpeed() async {
        let scenario = MuseumScenario.make(seed: 3)
        let clock = SteppingClock()
        var reference = RadioSimulator(scenario: scenario, seed: 3)
        var iterator = PacedSimulation(scenario: scenario, seed: 3, clock: clock, speed: 2).makeAsyncIterator()
        let start = clock.now
        for _ in 0..<500 {
            guard let paced = await iterator.next(), let expected = reference.next() else { Issue.record("ended early"); return }
            #expect(paced.advertisement == expected.advertisement)
            let elapsed = start.duration(to: clock.now)
            let simulated = (expected.advertisement.timestamp - scenario.startTime) / 2
            #expect(abs(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18 - simulated) < 1e-6)
        }
        #expect(clock.sleeps.count == 500)
    }

    @Test func theFeedLoopsPastTheEndOfTheWalk() async {
        let scenario = MuseumScenario.make(seed: 4)
        var iterator = PacedSimulation(scenario: scenario, seed: 4, clock: SteppingClock(), speed: 1000).makeAsyncIterator()
        var last = 0.0
        while let r = await iterator.next() {
            last = r.advertisement.timestamp - scenario.startTime
            if last > scenario.duration + 5 { break }
        }
        #expect(last > scenario.duration + 5)
    }
}
