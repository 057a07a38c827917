import BeaconFormats
import HCI
import Testing
@testable import Simulation

/// The simulator as a capture: what `sim:` and `demo` replay.
@Suite struct SimulationReaderTests {
    /// Each packet is the LE Advertising Report of the advertisement `RadioSimulator` received, with
    /// its time: decoded back, the same advertisements in the same order.
    @Test func packetsAreTheSimulatorsAdvertisementsAsReportEvents() throws {
        let scenario = MuseumScenario.make(seed: 3)
        var reference = RadioSimulator(scenario: scenario, seed: 3)
        var reader = SimulationReader(scenario: scenario, seed: 3)
        var decoder = AdvertisingReportDecoder()
        for _ in 0..<500 {
            let next = reader.nextPacket()
            let packet = try #require(next)
            let received = reference.next()
            let expected = try #require(received).advertisement
            var decoded: [Advertisement] = []
            try decoder.decode(packet) { decoded.append($0) }
            #expect(packet.timestamp == expected.timestamp)
            #expect(decoded.map(\.address) == [expected.address])
            #expect(decoded.map(\.rssi) == [expected.rssi])
            #expect(decoded.first.map { Array($0.data) } == Array(expected.data))
        }
    }

    @Test func theWalkLoopsPastItsEnd() {
        let scenario = MuseumScenario.make(seed: 4)
        var reader = SimulationReader(scenario: scenario, seed: 4)
        var last = 0.0
        while let packet = reader.nextPacket() {
            last = packet.timestamp - scenario.startTime
            if last > scenario.duration + 5 { break }
        }
        #expect(last > scenario.duration + 5)
        #expect(reader.endNote == nil)
    }
}
