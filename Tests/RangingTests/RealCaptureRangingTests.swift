import BeaconFormats
import Testing
import TestFixtures
@testable import Ranging

/// Real captures (shared/data/captures) through `BeaconPipeline`: the frame counts tshark reports,
/// and the +12 / +3 dBm measured powers some Govee frames carry give sane distances, flagged.
@Suite struct RealCaptureRangingTests {
    static func replay(_ name: String) throws -> (pipeline: BeaconPipeline, ticks: [RangingSnapshot]) {
        var pipeline = BeaconPipeline(engine: RangingEngine())
        var ticks: [RangingSnapshot] = []
        for packet in try CapturedEvents.leMetaEvents(in: name) {
            pipeline.feed(packet) { ticks.append($0) }
        }
        pipeline.finish { ticks.append($0) }
        return (pipeline, ticks)
    }

    @Test(arguments: [("govee-h5100.btsnoop", 99, 6), ("govee-h5075-h5074.btsnoop", 21, 6), ("horizon74.btsnoop", 11, 2), ("govee-h5105.pcapng", 35, 5)])
    func framesAndBeaconsMatchTshark(name: String, frames: Int, beacons: Int) throws {
        let (pipeline, ticks) = try Self.replay(name)
        #expect(pipeline.beaconReports == frames)
        let ids = Set(ticks.flatMap { $0.beacons.map(\.id) })
        #expect(ids.count == beacons)
        let packets = ticks.reduce(0) { $0 + $1.beacons.reduce(0) { $0 + $1.packets } }
        #expect(packets == frames, "every frame is counted in exactly one tick")
        for tick in ticks {
            // `nearest` first, then by distance.
            let rest = tick.beacons.first?.identity == tick.nearest ? tick.beacons.dropFirst() : tick.beacons[...]
            #expect(zip(rest, rest.dropFirst()).allSatisfy { RangingEngine.nearestFirst($0, $1) }, "sorted nearest first")
            for beacon in tick.beacons where beacon.accuracy >= 0 {
                #expect(beacon.accuracy < 100, "\(beacon.id) at \(beacon.accuracy) m")
            }
        }
    }

    @Test func nonsenseMeasuredPowerInRealFramesIsReplaced() throws {
        let (_, ticks) = try Self.replay("govee-h5075-h5074.btsnoop")
        let flagged = ticks.flatMap(\.beacons).filter { $0.measuredPower.source == .defaultForNonsense }
        #expect(!flagged.isEmpty)
        #expect(flagged.allSatisfy { $0.measuredPower.frameValue == 3 && $0.measuredPower.dBm == -59 })
        #expect(flagged.allSatisfy { $0.identity.description.hasPrefix("1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6") })
    }
}
