import BeaconFormats
import HCI
import TestFixtures
import Testing
@testable import Ranging

/// The ranging pipeline under times no capture reader would deliver (live sources and scripts
/// reach it directly): the sighting decoder refuses them as malformed, the pipeline skips them and
/// keeps ticking, never loops.
@Suite struct TimestampPolicyPipelineTests {
    @Test("a packet past 2^53 s is malformed (the decoder names the policy) and ticks go on from the next good packet")
    func timePast2To53IsSkipped() {
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var decoder = BeaconSightingDecoder()
        var ticks: [Double] = []
        var malformed: [DecodeError] = []
        let times = [1_700_000_000.5, 9.1e15, 1e300, -5, .infinity, 1_700_000_002.5]
        for time in times {
            pipeline.advance(to: time) { ticks.append($0.time) }
            do {
                try decoder.decode(BeaconPipelineTests.packet(minor: 1, rssi: -60, at: time)) { pipeline.record($0) }
            } catch {
                malformed.append(error)
            }
        }
        pipeline.finish { ticks.append($0.time) }
        #expect(malformed.count == 4)
        #expect(malformed.allSatisfy { $0.field == "timestamp" && $0.reason.contains("outside 1970-01-01 to 2200-01-01") }, "\(malformed)")
        #expect(ticks == [1_700_000_001, 1_700_000_002, 1_700_000_003])
        #expect(pipeline.beaconReports == 2)
    }

    @Test("a remote scanner's sighting timed outside the policy is not ranged, and moves no tick")
    func remoteSightingOutsideThePolicyIsSkipped() {
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 1)
        var ticks: [Double] = []
        let frame = BeaconFrame.iBeacon(IBeaconFrame(uuid: BeaconPipelineTests.uuid, major: 1, minor: 1, measuredPower: -59))
        for time in [1_700_000_000.5, 1e300, .nan, 1_700_000_001.5] {
            pipeline.advance(to: time) { ticks.append($0.time) }
            pipeline.record(BeaconSighting(timestamp: time, address: BDAddress(rawValue: 0xA1), addressType: .publicDevice,
                                           eventKind: .advNonconnInd, rssi: -60, frame: frame))
        }
        #expect(pipeline.beaconReports == 2)
        #expect(ticks == [1_700_000_001])
    }

    @Test("a 150-year jump with beacons kept forever costs at most a day of ticks, then resumes on time")
    func jumpInsideTheRangeIsBounded() {
        var configuration = RangingConfiguration()
        configuration.staleAfter = 1e12
        configuration.forgetAfter = 1e12
        var pipeline = BeaconPipeline(engine: RangingEngine(configuration: configuration), tickInterval: 1)
        var ticks: [Double] = []
        let start = 1_700_000_000.5
        let later = start + 150 * 365 * 86_400
        pipeline.feed(BeaconPipelineTests.packet(minor: 1, rssi: -60, at: start)) { ticks.append($0.time) }
        pipeline.feed(BeaconPipelineTests.packet(minor: 1, rssi: -60, at: later)) { ticks.append($0.time) }
        pipeline.finish { ticks.append($0.time) }
        #expect(ticks.count <= 86_400 + 3, "\(ticks.count) ticks")
        #expect(ticks.count > 86_000, "the tracked beacon is ticked for a day after its last packet")
        #expect(ticks.suffix(2) == [(later.rounded(.down)), later.rounded(.down) + 1])
    }

    @Test("ticks at a millisecond interval stay exact integers of the interval far into the range")
    func tickTimesAreMultiplesOfTheInterval() {
        var pipeline = BeaconPipeline(engine: RangingEngine(), tickInterval: 0.001)
        var ticks: [Double] = []
        let base = 7_000_000_000.0
        for step in 0..<5 {
            pipeline.feed(BeaconPipelineTests.packet(minor: 1, rssi: -60, at: base + Double(step) * 0.001)) { ticks.append($0.time) }
        }
        #expect(ticks.count == 4)
        #expect(Set(ticks).count == ticks.count, "every tick advanced")
    }
}
