import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// A replay held at its end (`holdAtEnd`, the monitor): it waits for a seek back instead of ending,
/// stepped by hand (no clock); the headless commands' replays still end there.
@Suite("Replay hold at the end")
struct ReplayHoldTests {
    static func engine(_ packets: [HCIPacket], control: ReplayControl, hold: Bool) -> ReplayEngine {
        ReplayEngine(name: "hold", options: ReplayOptions(speed: .max, holdAtEnd: hold), control: control, reader: ArrayReader(packets: packets)) {
            ArrayReader(packets: packets)
        }
    }

    /// Every step's action until the engine waits or ends.
    static func run(_ engine: inout ReplayEngine, atWall wall: Double) -> (events: [SourceEvent], last: ReplayEngine.Action) {
        var events: [SourceEvent] = []
        while true {
            let action = engine.step(wall: wall)
            guard case .emit(let event) = action else { return (events, action) }
            events.append(event)
        }
    }

    @Test("at the end it waits with no timer; → and . are dropped with one notice; ← plays again from 10 s before the end, time still increasing")
    func holdsForASeekBack() {
        let packets = (0..<30).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control, hold: true)
        let played = Self.run(&engine, atWall: 2000)
        #expect(played.events.filter { if case .packet = $0 { true } else { false } }.count == 30)
        #expect(played.events.last == .notice(.ended(source: "hold", reason: "end of replay after 30 packets")))
        #expect(played.last == .wait(.infinity))
        #expect(control.position.seconds == 29)

        // → (and . while paused) before the monitor took the end notice: said once, not dropped in silence.
        control.seek(by: 10)
        control.step()
        control.step()
        let forward = Self.run(&engine, atWall: 2001)
        #expect(forward.events == [.notice(.nothingFurther(source: "hold"))] && forward.last == .wait(.infinity))
        control.step()
        #expect(Self.run(&engine, atWall: 2001).events == [.notice(.nothingFurther(source: "hold"))])
        #expect(Self.run(&engine, atWall: 2001).events.isEmpty, "said once per press, not again unasked")

        control.seek(by: -10)
        let back = Self.run(&engine, atWall: 2002)
        #expect(back.events.first == .notice(.resumedFromEnd(source: "hold")))
        let times = back.events.compactMap { event -> Double? in if case .packet(let packet) = event { packet.timestamp } else { nil } }
        #expect(times.count == 11, "\(back.events)")
        #expect((times.first ?? 0) >= 129 && zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        #expect(back.events.last == .notice(.ended(source: "hold", reason: "end of replay after 41 packets played (19 skipped by seeks or --from)")))
        #expect(back.last == .wait(.infinity))
        #expect(control.position.seconds == 29)
    }

    @Test("without holdAtEnd (replay, scan FILE) the replay ends at its end")
    func headlessEnds() {
        let packets = (0..<5).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        var engine = Self.engine(packets, control: ReplayControl(), hold: false)
        #expect(Self.run(&engine, atWall: 2000).last == .end)
    }
}
