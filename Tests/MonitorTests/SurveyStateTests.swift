import BeaconFormats
import HCI
import Monitor
import Ranging
import Survey
import Testing

/// The survey screen's state with time as data: the cursor, a sample's start and end, what it
/// counts, cancelling, and the sample handed out once to be saved.
@Suite struct SurveyStateTests {
    static let plan = SurveyPlan(title: "Room", beacons: [
        SurveyPlan.Beacon(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:0:1", name: "One", position: FloorPosition(x: 2, y: 3)),
    ], walls: [])

    static func sighting(minor: UInt16, rssi: Int8, at time: Double) -> BeaconSighting {
        let frame = IBeaconFrame(uuid: MonitorFeedBoundTests.uuid, major: 0, minor: minor, measuredPower: -59)
        return BeaconSighting(timestamp: time, address: BDAddress(rawValue: UInt64(minor)), addressType: .randomDevice,
                              eventKind: .advNonconnInd, rssi: rssi, frame: .iBeacon(frame))
    }

    @Test func aSampleCountsWhatIsHeardForItsDurationAtTheCursor() throws {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        #expect(state.cursor == FloorPosition(x: 2, y: 3), "starts on the first placed beacon")
        #expect(state.handle(.enter) == .redraw)
        #expect(state.collector == nil, "no packet yet: no capture time to start at")
        #expect(state.waitingSpot == FloorPosition(x: 2, y: 3))
        #expect(state.handle(.escape) == .redraw)
        #expect(state.waitingSpot == nil && state.message == "sample cancelled", "Esc cancels a waiting sample too")

        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        _ = state.handle(.right)
        _ = state.handle(.up)
        #expect(state.cursor == FloorPosition(x: 2.5, y: 3.5))
        _ = state.handle(.enter)
        _ = state.handle(.left)
        #expect(state.cursor == FloorPosition(x: 2.5, y: 3.5), "the spot is fixed while sampling")
        #expect(state.place(at: FloorPosition(x: 7, y: 1)) == .redraw)
        #expect(state.cursor == FloorPosition(x: 2.5, y: 3.5), "a click does not move it either, and says why")
        #expect(state.message == "the spot is fixed until the sample ends (Esc cancels)")
        for step in 1...30 {
            state.observe(Self.sighting(minor: 1, rssi: Int8(-60 - step % 5), at: 100 + Double(step) / 10))
            state.observe(Self.sighting(minor: 2, rssi: -80, at: 100 + Double(step) / 10))
            if step == 10 { #expect(abs((state.sampleElapsed ?? 0) - 1) < 1e-9) }
            if let sample = state.advance(to: 100 + Double(step) / 10) {
                #expect(step == 20, "ends 2 s after it started")
                #expect(sample.index == 1 && sample.spot == FloorPosition(x: 2.5, y: 3.5))
                #expect(sample.start == 100 && sample.end == 102)
                let one = try #require(sample.reading(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:0:1"))
                #expect(one.packets == 20)
                #expect(sample.readings.count == 2)
            }
        }
        #expect(state.session.samples.count == 1, "handed out once")
        #expect(state.message == "sample 1 saved: 2 beacons heard")
    }

    /// `h` shows every mark and key; while it does, Esc closes it and leaves the sample under way,
    /// the keys scroll it, and a click does not move the cursor under it.
    @Test func theHelpPageLeavesTheSampleAndTheCursorAlone() {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        _ = state.handle(.enter)
        #expect(state.handle(.character("h")) == .redraw && state.showsHelp)
        state.helpScrollLimit = 5
        #expect(state.handle(.pageDown) == .redraw && state.helpScroll == 5)
        #expect(state.place(at: FloorPosition(x: 7, y: 1)) == .none && state.cursor == FloorPosition(x: 2, y: 3))
        #expect(state.handle(.escape) == .redraw && !state.showsHelp)
        #expect(state.collector != nil, "Esc closed the page; the sample goes on")
        #expect(state.handle(.character("?")) == .redraw && state.showsHelp && state.helpScroll == 0, "opened again at its top")
        #expect(state.handle(.character("q")) == .quit)
    }

    /// An Enter before the first beacon is heard (a live adapter's first second, a replay's first
    /// batch not yet taken) is kept: the sample starts with the first sighting, at the spot where
    /// Enter was pressed. It was refused with a message a source notice then replaced, so the
    /// technician saw nothing happen.
    @Test func anEnterBeforeTheFirstBeaconStartsTheSampleWithIt() throws {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        _ = state.handle(.enter)
        #expect(state.message == "no beacon heard yet: the sample starts with the first (Esc cancels)")
        _ = state.handle(.right)
        #expect(state.cursor == FloorPosition(x: 2, y: 3), "the spot is fixed once Enter is taken")
        state.note("recording to s/capture-1.btsnoop")
        #expect(state.advance(to: 50) == nil && state.collector == nil, "the clock alone starts nothing: no beacon yet")
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        let collector = try #require(state.collector)
        #expect(collector.spot == FloorPosition(x: 2, y: 3) && collector.start == 100 && state.waitingSpot == nil)
        state.observe(Self.sighting(minor: 1, rssi: -71, at: 101))
        let ended = state.advance(to: 102)
        let sample = try #require(ended)
        #expect(sample.start == 100 && sample.readings.count == 1)
        #expect(sample.reading(id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:0:1")?.packets == 2)
    }

    /// Enter while the source is lost waits for it to come back and starts with its first beacon;
    /// a replay that ends first leaves no sample and says so.
    @Test func anEnterWhileLostStartsOnceTheSourceIsBackAndNotAfterItsEnd() throws {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        state.lose("tcp:127.0.0.1:9000: lost")
        _ = state.handle(.enter)
        #expect(state.collector == nil && state.message == "the source is lost: the sample starts once it is back (Esc cancels)")
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 101))
        #expect(state.collector == nil, "nothing starts while the source is lost")
        state.connected("tcp:127.0.0.1:9000")
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 105))
        #expect(try #require(state.collector).start == 105)

        var ended = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        _ = ended.handle(.enter)
        ended.end("end of replay")
        #expect(ended.waitingSpot == nil && ended.message == "no sample: end of replay; nothing more to sample (q quits)")
        ended.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        #expect(ended.collector == nil)
    }

    @Test func aSourceLostMidSampleCancelsItAndNoSampleStartsUntilItIsBack() {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        _ = state.handle(.enter)
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100.5))
        state.lose("tcp:127.0.0.1:9000: lost (the other end closed the connection)")
        #expect(state.collector == nil)
        #expect(state.message == "sample cancelled: tcp:127.0.0.1:9000: lost (the other end closed the connection)")
        #expect(state.advance(to: 103) == nil, "the loop's clock runs on past the sample's end: nothing saved")
        #expect(state.session.samples.isEmpty)

        #expect(state.handle(.enter) == .redraw)
        #expect(state.collector == nil, "no sample while the source is lost")
        #expect(state.message == "the source is lost: the sample starts once it is back (Esc cancels)")
        #expect(state.handle(.escape) == .redraw && state.waitingSpot == nil)
        state.connected("tcp:127.0.0.1:9000")
        #expect(state.message == "tcp:127.0.0.1:9000 is back: the sample the loss cut off was not saved; take it again (Enter)")
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 104))
        #expect(state.collector == nil, "the cancelled wait starts nothing")
        _ = state.handle(.enter)
        #expect(state.collector != nil)
    }

    @Test func escapeCancelsAndQuitQuits() {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil)
        state.observe(Self.sighting(minor: 1, rssi: -70, at: 100))
        _ = state.handle(.character(" "))
        #expect(state.collector != nil)
        #expect(state.handle(.escape) == .redraw)
        #expect(state.collector == nil && state.message == "sample cancelled")
        #expect(state.advance(to: 200) == nil)
        #expect(state.place(at: FloorPosition(x: 4.26, y: -1.1)) == .redraw)
        #expect(state.cursor == FloorPosition(x: 4.5, y: -1), "a click lands on the half-metre grid")
        #expect(state.handle(.character("q")) == .quit)
    }

    /// A replay that ends leaves no packets to sample: a sample under way is dropped rather than
    /// saved with the capture clock running on over silence, and none starts after (it would be
    /// saved as a spot with no coverage).
    @Test func aReplaysEndStopsSampling() {
        var state = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        state.observe(Self.sighting(minor: 1, rssi: -60, at: 100))
        _ = state.handle(.enter)
        state.observe(Self.sighting(minor: 1, rssi: -60, at: 100.5))
        state.end("walk.btsnoop: end of replay after 6 packets")
        #expect(state.collector == nil)
        #expect(state.message == "sample cancelled: walk.btsnoop: end of replay after 6 packets; nothing more to sample (q quits)")
        #expect(state.advance(to: 103) == nil)
        _ = state.handle(.enter)
        #expect(state.collector == nil, "no sample after the end")
        #expect(state.message == "the source has ended: nothing more to sample (q quits)")
        #expect(state.advance(to: 110) == nil && state.session.samples.isEmpty)

        // A sample the packets already heard complete is kept (the loop saves it next).
        var full = SurveyState(session: SurveySession(plan: Self.plan, created: 0), catalog: nil, sampleSeconds: 2)
        full.observe(Self.sighting(minor: 1, rssi: -60, at: 100))
        _ = full.handle(.enter)
        full.observe(Self.sighting(minor: 1, rssi: -60, at: 102.5))
        full.end("walk.btsnoop: end of replay after 6 packets")
        #expect(full.advance(to: 102.5)?.readings.count == 1)
    }
}
