import BeaconFormats
import HCI
import TestFixtures
import Testing
@testable import Ranging

@Suite struct BeaconPipelineTests {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!

    static func packet(minor: UInt16, power: Int8 = -59, rssi: Int8, at time: Double) -> HCIPacket {
        let frame = IBeaconFrame(uuid: uuid, major: 1, minor: minor, measuredPower: power)
        let advert = Advertisement(
            timestamp: time, address: BDAddress(rawValue: 0xA0 + UInt64(minor)), addressType: .publicDevice,
            eventKind: .advNonconnInd, rssi: rssi, data: frame.advertisingData[...]
        )
        return AdvertisingReportEncoder.legacyReportPacket([advert], at: time)
    }

    @Test func packetsBecomeTicksOnWholeSecondsOfCaptureTime() {
        var pipeline = BeaconPipeline(engine: RangingEngine(configuration: .plainLogDistance), tickInterval: 1)
        var ticks: [RangingSnapshot] = []
        for step in 0..<50 {
            let time = 1_700_000_000.25 + Double(step) / 10
            pipeline.feed(Self.packet(minor: 1, rssi: -65, at: time)) { ticks.append($0) }
        }
        pipeline.finish { ticks.append($0) }
        #expect(ticks.map(\.time) == [1_700_000_001, 1_700_000_002, 1_700_000_003, 1_700_000_004, 1_700_000_005, 1_700_000_006], "five ticks during the packets, one at the end")
        #expect(ticks[1].beacons.first?.packets == 10)
        #expect(ticks[0].beacons.first?.identity == .iBeacon(uuid: Self.uuid, major: 1, minor: 1))
        #expect(pipeline.beaconReports == 50)
        #expect(abs(ticks.last!.beacons[0].accuracy - 2) < 0.01, "-65 dBm at P1m -59, n 2")
    }

    /// A scanner agent's last tick: at the scan's real end, holding what came since the tick before.
    @Test func finishAtTheRealEnd() {
        func run(lastAt last: Double, end: Double?) -> [RangingSnapshot] {
            var pipeline = BeaconPipeline(engine: RangingEngine(configuration: .plainLogDistance), tickInterval: 1)
            var ticks: [RangingSnapshot] = []
            for time in [1_700_000_000.25, 1_700_000_000.5, 1_700_000_001.25, 1_700_000_001.5, last] {
                pipeline.feed(Self.packet(minor: 1, rssi: -65, at: time)) { ticks.append($0) }
            }
            pipeline.finish(at: end) { ticks.append($0) }
            return ticks
        }
        let replay = run(lastAt: 1_700_000_001.75, end: nil)
        #expect(replay.map(\.time) == [1_700_000_001, 1_700_000_001.75], "the last packet's time, not the next second")
        #expect(replay.last?.beacons.first?.packets == 3)
        let live = run(lastAt: 1_700_000_001.75, end: 1_700_000_003.5)
        #expect(live.map(\.time) == [1_700_000_001, 1_700_000_002, 1_700_000_003, 1_700_000_003.5], "the ticks due before the end, then the end")
        #expect(live.last?.beacons.first?.packets == 0)
        let early = run(lastAt: 1_700_000_001.75, end: 1_700_000_001)
        #expect(early.map(\.time) == [1_700_000_001, 1_700_000_001.75], "an end before the last packet is the last packet")
        let onABoundary = run(lastAt: 1_700_000_002, end: nil)
        #expect(onABoundary.map(\.time) == [1_700_000_001, 1_700_000_002, 1_700_000_003], "no second tick at 2 s: the next boundary's, as before")
        #expect(onABoundary.last?.beacons.first?.packets == 1, "the packet on the boundary came after its tick")
    }

    /// Telemetry and reports without RSSI are decoded (a decode lists them) but never ranged.
    @Test func onlyRangeableSightingsAreRanged() {
        var pipeline = BeaconPipeline(engine: RangingEngine())
        let address = BDAddress(rawValue: 0xA1)
        let beacon = BeaconFrame.iBeacon(IBeaconFrame(uuid: Self.uuid, major: 1, minor: 1, measuredPower: -59))
        let telemetry = BeaconFrame.eddystoneTLM(EddystoneTLMFrame(version: 0, payload: .plain(batteryMillivolts: 3000, temperatureCelsius: 20, advertisingCount: 1, uptimeTenths: 10)))
        func sighting(_ frame: BeaconFrame, rssi: Int8?) -> BeaconSighting {
            BeaconSighting(timestamp: 1, address: address, addressType: .publicDevice, eventKind: .advNonconnInd, rssi: rssi, frame: frame)
        }
        pipeline.advance(to: 1) { _ in }
        pipeline.record(sighting(beacon, rssi: nil))
        pipeline.record(sighting(telemetry, rssi: -60))
        #expect(pipeline.beaconReports == 0)
        #expect(pipeline.engine.trackedBeacons == 0)
        pipeline.record(sighting(beacon, rssi: -60))
        #expect(pipeline.beaconReports == 1)
        #expect(pipeline.engine.trackedBeacons == 1)
    }

    @Test func aLongSilencePrintsOneEmptyTickNotThousands() {
        var configuration = RangingConfiguration()
        configuration.forgetAfter = 10
        var pipeline = BeaconPipeline(engine: RangingEngine(configuration: configuration))
        var ticks: [RangingSnapshot] = []
        pipeline.feed(Self.packet(minor: 1, rssi: -60, at: 100.5)) { ticks.append($0) }
        pipeline.feed(Self.packet(minor: 1, rssi: -60, at: 10_000.5)) { ticks.append($0) }
        #expect(ticks.count < 20)
        #expect(ticks.filter { $0.beacons.isEmpty }.count == 1)
    }

    @Test func nonsensePowerInFramesIsFlaggedThroughThePipeline() {
        var pipeline = BeaconPipeline(engine: RangingEngine(configuration: .plainLogDistance))
        var ticks: [RangingSnapshot] = []
        for step in 0..<30 {
            pipeline.feed(Self.packet(minor: 4, power: 12, rssi: -70, at: Double(step) / 10)) { ticks.append($0) }
        }
        let reading = ticks.last!.beacons[0]
        #expect(reading.measuredPower.source == .defaultForNonsense)
        #expect(reading.accuracy > 3 && reading.accuracy < 4, "-70 dBm at -59: 3.5 m, not kilometres")
        #expect(TickLineEncoder.line(ticks.last!).contains(#""frameMeasuredPower":12"#))
    }

    /// A caller with its own decoder (advance + record) gets exactly the ticks `feed` gives.
    @Test func advanceAndRecordMatchFeed() {
        var viaFeed = BeaconPipeline(engine: RangingEngine())
        var viaRecord = BeaconPipeline(engine: RangingEngine())
        var a: [RangingSnapshot] = []
        var b: [RangingSnapshot] = []
        for step in 0..<40 {
            let time = 50.3 + Double(step) / 7
            let rssi = Int8(-60 - step % 5)
            viaFeed.feed(Self.packet(minor: UInt16(step % 3), rssi: rssi, at: time)) { a.append($0) }
            viaRecord.advance(to: time) { b.append($0) }
            let frame = BeaconFrame.iBeacon(IBeaconFrame(uuid: Self.uuid, major: 1, minor: UInt16(step % 3), measuredPower: -59))
            viaRecord.record(Sighting(time: time, frame: frame, address: BDAddress(rawValue: 0xA0 + UInt64(step % 3)), rssi: Int(rssi)))
        }
        viaFeed.finish { a.append($0) }
        viaRecord.finish { b.append($0) }
        #expect(a == b)
        #expect(a.count == 6, "ticks at 51...55 s, then 56 s at the end")
    }
}
