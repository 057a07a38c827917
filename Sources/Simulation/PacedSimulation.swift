/// The simulator as a live source: yields the same advertisements as `RadioSimulator`, each when
/// its time comes on `clock` (scaled by `speed`), looping the walk forever. What
/// `beacontop monitor sim:demo/museum.yaml` and `beacontop demo` read.
///
/// Timestamps stay on the scenario's clock (`Scenario.startTime` plus simulated seconds); set
/// `startTime` to the wall-clock time before starting if the consumer wants wall time. The
/// clock is injected, so a test can run an hour of pacing instantly with a clock of its own.
public struct PacedSimulation<C: Clock>: AsyncSequence, Sendable where C.Duration == Duration, C: Sendable {
    public typealias Element = SimulatedReception

    public let scenario: Scenario
    public let seed: UInt64
    public let clock: C
    /// 1 is real time; 2 plays twice as fast.
    public let speed: Double

    public init(scenario: Scenario, seed: UInt64, clock: C, speed: Double = 1) {
        precondition(speed > 0, "speed must be positive")
        self.scenario = scenario
        self.seed = seed
        self.clock = clock
        self.speed = speed
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(simulator: RadioSimulator(scenario: scenario, seed: seed, looping: true), clock: clock, speed: speed)
    }

    public struct Iterator: AsyncIteratorProtocol {
        var simulator: RadioSimulator
        let clock: C
        let speed: Double
        var origin: C.Instant?

        /// The next advertisement once its time has come; nil when the task is cancelled.
        public mutating func next() async -> SimulatedReception? {
            guard !Task.isCancelled, let reception = simulator.next() else { return nil }
            let start = origin ?? clock.now
            origin = start
            let offset = (reception.advertisement.timestamp - simulator.scenario.startTime) / speed
            do {
                try await clock.sleep(until: start.advanced(by: .seconds(offset)), tolerance: nil)
            } catch {
                return nil
            }
            return reception
        }
    }
}
