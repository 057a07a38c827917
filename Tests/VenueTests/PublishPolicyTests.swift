import Testing
import Venue

@Suite("The agent's publishing policy")
struct PublishPolicyTests {
    @Test("A still beacon: once a second, whatever the tick rate")
    func everyInterval() {
        var policy = PublishPolicy()
        let ticks = stride(from: 0.0, through: 10.0, by: 0.1).map { $0 }
        let published = ticks.filter { policy.shouldPublish(beacon: "a", distance: 2.0, at: $0) }
        #expect(published.count == 11)
        #expect(zip(published, published.dropFirst()).allSatisfy { $1 - $0 >= 1 - 1e-9 })
    }

    @Test("At --publish-interval 0.1 every tick goes out, on today's epoch times as the pipeline makes them")
    func everyTickAtTheShortestInterval() {
        var policy = PublishPolicy(interval: 0.1)
        // BeaconPipeline's tick times: tick number times the interval, around 1.8e9 s.
        let first = Int64((1_795_497_000 / 0.1).rounded(.down))
        let ticks = (0..<100).map { Double(first + Int64($0)) * 0.1 }
        let published = ticks.filter { policy.shouldPublish(beacon: "a", distance: 2.0, at: $0) }
        #expect(published.count == 100, "only \(published.count) of 100 ticks")
    }

    @Test("A distance step beyond 0.5 m goes out early, but never within 0.1 s of the last message")
    func early() {
        var policy = PublishPolicy()
        func due(_ distance: Double?, _ time: Double) -> Bool { policy.shouldPublish(beacon: "a", distance: distance, at: time) }
        #expect(due(2.0, 0))
        #expect(!due(2.4, 0.3), "0.4 m is within the step")
        #expect(due(2.6, 0.4), "0.6 m is news")
        #expect(!due(4.0, 0.45), "too soon after the last message")
        #expect(due(4.0, 0.55))
        #expect(!due(nil, 0.9), "unknown distance waits for the interval")
        #expect(due(nil, 1.55))
    }

    @Test("Beacons are independent; forgotten ones free their memory; a clock step back publishes")
    func independentAndForgotten() {
        var policy = PublishPolicy(interval: 2)
        func due(_ beacon: String, _ time: Double) -> Bool { policy.shouldPublish(beacon: beacon, distance: 1, at: time) }
        #expect(due("a", 10))
        #expect(due("b", 10.5))
        #expect(!due("a", 11))
        policy.forget(before: 10.2)
        #expect(policy.tracked == 1)
        #expect(due("a", 11))
        #expect(due("b", 5), "time went backwards: publish rather than go quiet")
    }
}
