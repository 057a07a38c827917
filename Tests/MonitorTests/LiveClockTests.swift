import BeaconFormats
import HCI
import PacketSources
import Ranging
import Synchronization
import TestFixtures
import Testing

/// The live clock under a host clock stepped back (simulated: the readings are injected, the host
/// clock is never touched): its time never runs back, and ranging over it keeps ticking.
@Suite struct LiveClockTests {
    static let start = 1_790_000_000.0

    /// Wall readings each `interval` s of monotonic time, the wall stepped by `step` at `stepAt` s.
    static func times(count: Int, interval: Double, step: Double, stepAt: Double) -> [Double] {
        var clock = LiveClock()
        return (0..<count).map { index in
            let elapsed = Double(index) * interval
            return clock.time(wall: start + elapsed + (elapsed >= stepAt ? step : 0), monotonic: 500 + elapsed)
        }
    }

    @Test("a clock that never steps back gives the wall clock's own readings")
    func steadyWallIsUnchanged() {
        var clock = LiveClock()
        let walls = (0..<1_000).map { Self.start + Double($0) * 0.013 }
        // The monotonic readings jitter against the wall's by microseconds, as two clocks read in
        // turn do, and the wall's own rounding at 1.79e9 s is 2e-7 s: neither may add up to a drift.
        let times = walls.enumerated().map { clock.time(wall: $1, monotonic: 7 + Double($0) * 0.013 + ($0 % 2 == 0 ? 3e-6 : -3e-6)) }
        #expect(times == walls)
    }

    @Test("a step back of an hour: the time runs on by the monotonic clock; a step forward takes the lead back")
    func stepBackRunsOn() {
        let times = Self.times(count: 100, interval: 0.5, step: -3_600, stepAt: 20)
        for (before, after) in zip(times, times.dropFirst()) { #expect(after - before == 0.5) }
        // Then the wall clock is set right again (a step forward of the hour): the lead ends there,
        // with no jump; a later step forward of a day is taken as it comes.
        var clock = LiveClock()
        _ = clock.time(wall: Self.start, monotonic: 0)
        #expect(clock.time(wall: Self.start - 3_600 + 1, monotonic: 1) == Self.start + 1)
        #expect(clock.lead == 3_600)
        #expect(clock.time(wall: Self.start + 2, monotonic: 2) == Self.start + 2)
        #expect(clock.lead == 0)
        #expect(clock.time(wall: Self.start + 86_400, monotonic: 3) == Self.start + 86_400)
    }

    @Test("the shared clock over readings from any thread: one time line that never runs back")
    func steadyOverInjectedReadings() {
        let ticks = Mutex(0)
        let stepped = LiveClock.steady(
            wall: { ticks.withLock { $0 < 50 ? Self.start + Double($0) : Self.start - 1_000 + Double($0) } },
            monotonic: { ticks.withLock { count in count += 1; return Double(count) } }
        )
        let times = (0..<100).map { _ in stepped() }
        for (before, after) in zip(times, times.dropFirst()) { #expect(after > before) }
        #expect(times == (1...100).map { Self.start + Double($0) })
    }

    @Test("ranging over a live clock stepped back 30 s: a tick every second, the beacon heard in each")
    func rangingTicksOnAfterStepBack() {
        // 60 s of a beacon at 8 Hz, the host clock set back 30 s at 20 s (chrony, `date -s`).
        let times = Self.times(count: 480, interval: 0.125, step: -30, stepAt: 20)
        var pipeline = BeaconPipeline(engine: RangingEngine())
        var ticks: [RangingSnapshot] = []
        let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
        let advertising = IBeaconFrame(uuid: uuid, major: 1, minor: 1, measuredPower: -59).advertisingData
        for time in times {
            let advert = Advertisement(
                timestamp: time, address: BDAddress(rawValue: 0xA1), addressType: .publicDevice,
                eventKind: .advNonconnInd, rssi: -65, data: advertising[...]
            )
            pipeline.feed(AdvertisingReportEncoder.legacyReportPacket([advert], at: time)) { ticks.append($0) }
        }
        // Stamped with the wall clock, no tick came from 20 s to 50 s: the last 40 s had 10 ticks.
        #expect(ticks.count == 59, "\(ticks.map(\.time))")
        for (before, after) in zip(ticks, ticks.dropFirst()) { #expect(after.time == before.time + 1) }
        #expect(ticks.dropFirst().allSatisfy { $0.beacons.first?.packets == 8 })
    }
}
