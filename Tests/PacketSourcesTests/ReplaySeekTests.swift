import Foundation
import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// Seeking a replay (the monitor's left/right keys), stepped by hand: no clock, no waiting.
@Suite("Replay seek")
struct ReplaySeekTests {
    /// Emitted packets' (delivered timestamp, payload marker) until the engine asks to wait.
    static func deliver(_ engine: inout ReplayEngine, atWall wall: Double) -> [(time: Double, marker: UInt8)] {
        var out: [(Double, UInt8)] = []
        while case .emit(let event) = engine.step(wall: wall) {
            if case .packet(let packet) = event { out.append((packet.timestamp, packet.payload.last!)) }
        }
        return out
    }

    /// An engine over `packets` that re-reads them from the start on a seek back.
    static func engine(_ packets: [HCIPacket], control: ReplayControl) -> ReplayEngine {
        ReplayEngine(name: "seek", options: ReplayOptions(), control: control, reader: ArrayReader(packets: packets)) {
            ArrayReader(packets: packets)
        }
    }

    @Test("forward skips to the target; back replays from there with time still increasing")
    func seekForwardAndBack() {
        let packets = (0..<40).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        let first = Self.deliver(&engine, atWall: 1000)
        #expect(first.map(\.marker) == [0])
        #expect(Self.deliver(&engine, atWall: 1005).map(\.marker) == [1, 2, 3, 4, 5])

        control.seek(by: 10)
        let forward = Self.deliver(&engine, atWall: 1005)
        #expect(forward.map(\.marker) == [15])
        #expect(forward.first?.time == 115)
        #expect(control.position.seconds == 15)
        // Paced from the new position: one packet a second again.
        #expect(Self.deliver(&engine, atWall: 1007).map(\.marker) == [16, 17])

        control.seek(by: -12)
        let back = Self.deliver(&engine, atWall: 1007)
        #expect(back.map(\.marker) == [5])
        #expect(control.position.seconds == 5)
        let next = Self.deliver(&engine, atWall: 1009)
        #expect(next.map(\.marker) == [6, 7])
        // Delivered time never runs backwards: packet 5 comes right after packet 17's time.
        #expect(back[0].time >= 117)
        #expect(zip([117.0] + back.map(\.time) + next.map(\.time), back.map(\.time) + next.map(\.time)).allSatisfy { $0 <= $1 })

        control.seek(by: -100)
        #expect(Self.deliver(&engine, atWall: 1009).map(\.marker) == [0])
    }

    @Test("a press before the first packet was read is kept, not dropped: it lands 10 s on from the start")
    func aSeekBeforeTheFirstPacketIsKept() {
        let packets = (0..<40).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        // The monitor shows 00:00 as the replay opens; a → then, before the replay thread read a
        // packet, was taken and dropped (MonitorTerminalTests' seek timed out once in CI).
        control.seek(by: 10)
        let first = Self.deliver(&engine, atWall: 1000)
        #expect(first.map(\.marker).last == 10, "\(first.map(\.marker))")
        #expect(control.position.seconds == 10)
        #expect(Self.deliver(&engine, atWall: 1002).map(\.marker) == [11, 12])
    }

    @Test("presses while paused add up, and the position shows where they landed")
    func pausedSeeksAddUp() {
        let packets = (0..<60).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        _ = Self.deliver(&engine, atWall: 1000)
        #expect(Self.deliver(&engine, atWall: 1002).map(\.marker) == [1, 2])
        control.pause()
        #expect(Self.deliver(&engine, atWall: 1002).isEmpty)

        // Each press is applied at once (it wakes the paused replay), before the next.
        control.seek(by: 10)
        #expect(Self.deliver(&engine, atWall: 1003).isEmpty)
        #expect(control.position.seconds == 12)
        control.seek(by: 10)
        #expect(Self.deliver(&engine, atWall: 1003).isEmpty)
        #expect(control.position.seconds == 22)
        control.step()
        let forward = Self.deliver(&engine, atWall: 1004)
        #expect(forward.map(\.marker) == [22])

        control.seek(by: -10)
        #expect(Self.deliver(&engine, atWall: 1004).isEmpty)
        control.seek(by: -10)
        #expect(Self.deliver(&engine, atWall: 1004).isEmpty)
        #expect(control.position.seconds == 2)
        control.step()
        let back = Self.deliver(&engine, atWall: 1005)
        #expect(back.map(\.marker) == [2])
        // Time still never runs backwards, and jumps no further than the packet just before: the
        // two presses back shift later packets once by the whole 20 s.
        #expect(back.first.map { $0.time >= 122 && $0.time < 123 } == true)
    }

    @Test("through a silence the position runs on at the replay's pace, and a seek counts from it")
    func positionRunsThroughASilence() {
        // Two packets, a minute of silence, two more.
        let packets = [100.0, 101, 161, 162].enumerated().map { eventPacket(at: $0.element, UInt8($0.offset)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        #expect(Self.deliver(&engine, atWall: 1000).map(\.marker) == [0])
        #expect(Self.deliver(&engine, atWall: 1001).map(\.marker) == [1])
        #expect(control.position.seconds == 1)
        // 20 s into the silence the clock shows 21 s, not the last packet's 1 s.
        #expect(Self.deliver(&engine, atWall: 1020).isEmpty)
        #expect(control.position.seconds == 20)
        #expect(Self.deliver(&engine, atWall: 1030.5).isEmpty)
        #expect(control.position.seconds == 30.5)
        // Paused in the silence: the position stays where the pause caught it.
        control.pause()
        #expect(Self.deliver(&engine, atWall: 1031).isEmpty)
        #expect(control.position.seconds == 31)
        #expect(Self.deliver(&engine, atWall: 1050).isEmpty)
        #expect(control.position.seconds == 31)
        // Back 10 s from the 31 s shown, not from the last packet's 1 s: 21 s, still silent.
        control.seek(by: -10)
        #expect(Self.deliver(&engine, atWall: 1050).isEmpty)
        #expect(control.position.seconds == 21)
        control.seek(by: 10)
        #expect(Self.deliver(&engine, atWall: 1050).isEmpty)
        #expect(control.position.seconds == 31)
        // The next packet is the silence's end; ranging time still never ran backwards.
        control.step()
        let next = Self.deliver(&engine, atWall: 1051)
        #expect(next.map(\.marker) == [2])
        #expect(next.first.map { $0.time >= 131 } == true)
    }

    @Test("a seek into a silence shows the target and plays the silence's rest at the replay's pace, as a player does")
    func aSeekIntoASilenceLandsOnTheTarget() {
        // Packets a second apart, then 9 s of silence up to a packet at 20 s (as at the end of
        // govee-h5100.btsnoop, where ← aims at 06:25, 4 s before the packet at 06:29).
        let packets = [100.0, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 120, 130].enumerated().map { eventPacket(at: $0.element, UInt8($0.offset)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        #expect(Self.deliver(&engine, atWall: 1000).map(\.marker) == [0])
        #expect(Self.deliver(&engine, atWall: 1020).map(\.marker) == Array(1...12))
        #expect(control.position.seconds == 20)
        control.seek(by: -6)
        // The target is 14 s, inside the silence: the position shows it, no packet goes out yet.
        #expect(Self.deliver(&engine, atWall: 1020).isEmpty)
        #expect(control.position.seconds == 14)
        // The silence runs on at 1x: 3 s later the clock reads 17 s, still nothing played.
        #expect(Self.deliver(&engine, atWall: 1023).isEmpty)
        #expect(control.position.seconds == 17)
        // The packet ending it goes out when the replay's clock reaches it, 6 s after the seek,
        // dated 6 s after the packet played before the seek: ranging time ran on with the wall.
        let last = Self.deliver(&engine, atWall: 1026)
        #expect(last.map(\.marker) == [12])
        #expect(last.first?.time == 126)
        #expect(control.position.seconds == 20)
        // Forward into a silence the same: from 10 s, +5 lands at 15 s, and 20 s is 5 s away.
        control.seek(by: -10)
        #expect(Self.deliver(&engine, atWall: 1026).map(\.marker) == [10])
        control.seek(by: 5)
        #expect(Self.deliver(&engine, atWall: 1026).isEmpty)
        #expect(control.position.seconds == 15)
        #expect(Self.deliver(&engine, atWall: 1030).isEmpty)
        #expect(Self.deliver(&engine, atWall: 1031).map(\.marker) == [12])
    }

    @Test("a bad record met while skipping to a seek's target is reported and the seek goes on to the target")
    func aBadRecordDoesNotEndTheSeek() throws {
        // ll-phdr-no-rssi.pcapng with two malformed records: its 4-byte SCAN_RSPs at bytes 62212 and
        // 126836, marked as checked with a valid CRC (flags 0x0C01), which only the sniffer can
        // say. Unmarked they are CRC errors, and no advertisements.
        var bytes = try [UInt8](Data(contentsOf: SharedData.capture("ll-phdr-no-rssi.pcapng")))
        for record in [62212, 126836] { bytes[record + 28 + 9] = 0x0C }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ll-phdr-crc-\(UUID().uuidString.prefix(8)).pcapng").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let control = ReplayControl()
        var engine = ReplayEngine(
            name: path, options: ReplayOptions(speed: .max), control: control, reader: try CaptureReplayReader(path: path)
        ) { try CaptureReplayReader(path: path) }
        var delivered: [Double] = []
        var notices = 0
        func run(until count: Int) {
            while delivered.count < count, case .emit(let event) = engine.step(wall: 0) {
                if case .packet(let packet) = event { delivered.append(packet.timestamp) }
                if case .notice(.framingError) = event { notices += 1 }
            }
        }
        run(until: 2300)
        let before = try #require(delivered.last)
        #expect(notices == 2)
        control.seek(by: -10)
        run(until: 2340)
        try #require(delivered.count == 2340)
        // The seek back read the file again from its start, past both bad records, to the target.
        #expect(notices == 4)
        #expect(delivered[2300...].allSatisfy { $0 >= before }, "ranging time ran back to \(delivered[2300...].min()!), from \(before)")
        // 40 packets on from 10 s before: between there and where the seek started.
        let target = before - 10 - delivered[0]
        #expect(control.position.seconds >= target && control.position.seconds < target + 10, "\(control.position.seconds), target \(target)")
    }

    @Test("the end line says how many packets were played and how many a seek skipped")
    func theEndLineCountsSkippedPackets() {
        let packets = (0..<10).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = Self.engine(packets, control: control)
        #expect(Self.deliver(&engine, atWall: 1000).map(\.marker) == [0])
        control.seek(by: 5)
        var notices: [SourceNotice] = []
        var played: [UInt8] = []
        // The wall clock moves on by each wait asked for, so the packets fall due; bounded, so
        // an engine that never ends fails the test instead of hanging it.
        var wall = 1000.0
        steps: for _ in 0..<1000 {
            switch engine.step(wall: wall) {
            case .emit(.packet(let packet)): played.append(packet.payload.last!)
            case .emit(.notice(let notice)): notices.append(notice)
            case .emit: continue
            case .wait(let seconds): wall += seconds
            case .end: break steps
            }
        }
        #expect(played == [5, 6, 7, 8, 9])
        #expect(notices == [
            .sought(source: "seek", position: 5, capture: 105),
            .ended(source: "seek", reason: "end of replay after 6 packets played (4 skipped by seeks or --from)"),
        ])
    }

    @Test("a seek back stops at --from: before it, the replay played nothing for the 10 s the position ran through")
    func aSeekBackStopsAtFrom() {
        let packets = (0..<40).map { eventPacket(at: 100 + Double($0), UInt8($0)) }
        let control = ReplayControl()
        var engine = ReplayEngine(name: "seek", options: ReplayOptions(from: 20), control: control, reader: ArrayReader(packets: packets)) {
            ArrayReader(packets: packets)
        }
        #expect(Self.deliver(&engine, atWall: 1000).map(\.marker) == [20])
        #expect(Self.deliver(&engine, atWall: 1005).map(\.marker) == [21, 22, 23, 24, 25])
        // ← from 25 aims at 15, before the window --from 20 opens: every packet there is skipped
        // as before --from, so the monitor's beacons went silent while the clock ran 15 to 20.
        control.seek(by: -10)
        let back = Self.deliver(&engine, atWall: 1005)
        #expect(back.map(\.marker) == [20])
        #expect(control.position.seconds == 20)
        #expect(Self.deliver(&engine, atWall: 1007).map(\.marker) == [21, 22])
    }
}
