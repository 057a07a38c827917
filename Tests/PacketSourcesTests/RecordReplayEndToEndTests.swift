import Captures
import Foundation
import HCI
import Testing
import TestFixtures
#if canImport(Glibc)
import Glibc
#endif

/// Recording any source with `--record`, and replaying files through `scan FILE`.
@Suite("Record and replay end to end", .serialized)
struct RecordReplayEndToEndTests {
    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(name)")
    }

    static func stripTime(_ line: FrameLine) -> FrameLine {
        var copy = line
        copy.t = 0
        return copy
    }

    static func packetCount(_ url: URL) throws -> (packets: Int, truncation: CaptureTruncation?) {
        var reader = try CaptureReader(path: url.path)
        var count = 0
        while try reader.next() != nil { count += 1 }
        return (count, reader.truncation)
    }

    @Test("a recording of the Bumble world replays to the same beacon set, and tshark counts what beacontop counts")
    func recordAndReplay() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let recording = Self.temporaryFile("world.btsnoop")
        defer { try? FileManager.default.removeItem(at: recording) }
        let live = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--frames", "--duration", "3", "--record", recording.path], limit: 30)
        #expect(live.status == 0, "\(live.stderr)")
        let liveLines = try FrameLine.parse(live.stdout)
        try #require(!liveLines.isEmpty)

        let replay = try BeacontopBinary.run(["scan", recording.path, "--json", "--frames"], limit: 30)
        #expect(replay.status == 0, "\(replay.stderr)")
        let replayLines = try FrameLine.parse(replay.stdout)
        #expect(Set(replayLines.map(BumbleEndToEndTests.summary)) == BumbleEndToEndTests.expected)
        // Every frame seen live is in the recording, with its arrival time (to the microsecond
        // btsnoop keeps). Compared by summary so a failure prints a short difference.
        #expect(replayLines.count == liveLines.count)
        let mismatches = zip(replayLines, liveLines).filter { replay, live in
            Self.stripTime(replay) != Self.stripTime(live) || abs(replay.t - live.t) > 2e-6
        }
        #expect(mismatches.count == 0, "first: \(mismatches.first.map { "\($0.0) vs \($0.1)" } ?? "")")

        // The recording holds the commands beacontop sent as well as the controller's packets.
        let (packets, truncation) = try Self.packetCount(recording)
        #expect(truncation == nil)
        for (filter, expected) in [("", packets), ("btcommon.eir_ad.entry.company_id==0x004c", liveLines.count { $0.kind == "ibeacon" })] {
            let (status, text) = try Self.tshark(["-r", recording.path] + (filter.isEmpty ? [] : ["-Y", filter]))
            #expect(status == 0, "tshark failed on the recording")
            #expect(text.split(separator: "\n").count == expected, "tshark \(filter)")
        }
    }

    /// Runs Wireshark's tshark (an independent decoder): its exit status and standard output.
    static func tshark(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tshark")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// The commands a recording holds, in order (host-to-controller packets).
    static func commands(_ url: URL) throws -> [HCICommand] {
        var reader = try CaptureReader(path: url.path)
        var commands: [HCICommand] = []
        while let packet = try reader.next() {
            guard packet.type == .command, packet.direction == .hostToController, packet.payload.count >= 3 else { continue }
            let p = Array(packet.payload)
            commands.append(HCICommand(opcode: UInt16(p[0]) | UInt16(p[1]) << 8, parameters: Array(p[3...])))
        }
        return commands
    }

    @Test("scanning is disabled on every exit: duration end, SIGINT, SIGTERM", arguments: [nil, SIGINT, SIGTERM])
    func disablesScanning(signal: Int32?) throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let recording = Self.temporaryFile("exit.btsnoop")
        defer { try? FileManager.default.removeItem(at: recording) }
        let scanner = try BeacontopBinary.Running(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--record", recording.path] + (signal == nil ? ["--duration", "2"] : []))
        if let signal {
            // Scanning (a frame printed) before the signal: the enable is what the end must undo.
            // Waited for, not 2 s that a loaded machine's slow debug start can outrun.
            #expect(scanner.waitUntil { !$0.stdoutText.isEmpty }, "no frame before the signal")
            kill(scanner.process.processIdentifier, signal)
        }
        let result = scanner.wait(limit: 20)
        #expect(result.status == 0, "\(result.stderr)")
        let commands = try Self.commands(recording)
        #expect(commands.first == .reset)
        #expect(commands.contains(.leSetExtendedScanEnable(true, filterDuplicates: false)))
        #expect(commands.last == .leSetExtendedScanEnable(false, filterDuplicates: false))
    }

    @Test("a recording killed with SIGKILL replays up to its last whole record; a torn copy says where it ends")
    func killedRecording() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let recording = Self.temporaryFile("killed.btsnoop")
        defer { try? FileManager.default.removeItem(at: recording) }
        let scanner = try BeacontopBinary.Running(["scan", "tcp:127.0.0.1:\(world.ports[0])", "--record", recording.path])
        let deadline = Date().addingTimeInterval(20)
        while ((try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0) < 20_000 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        kill(scanner.process.processIdentifier, SIGKILL)
        _ = scanner.wait(limit: 5)
        let (packets, truncation) = try Self.packetCount(recording)
        #expect(packets > 100)
        #expect(truncation == nil, "every record was written whole before the kill")
        let replay = try BeacontopBinary.run(["scan", recording.path, "--json", "--frames"], limit: 30)
        #expect(replay.status == 0)
        let frames = try FrameLine.parse(replay.stdout)
        #expect(Set(frames.map(\.kind)) == ["ibeacon", "altbeacon", "eddystone-uid", "eddystone-url"])

        // Cut the file in the middle of its last record, as a crash inside write(2) could.
        var bytes = try Data(contentsOf: recording)
        bytes.removeLast(10)
        let torn = Self.temporaryFile("torn.btsnoop")
        defer { try? FileManager.default.removeItem(at: torn) }
        try bytes.write(to: torn)
        let tornReplay = try BeacontopBinary.run(["scan", torn.path, "--json", "--frames"], limit: 30)
        #expect(tornReplay.status == 0)
        #expect(tornReplay.stderr.contains("replayed up to there"), "\(tornReplay.stderr)")
        #expect(tornReplay.stderr.contains("after \(packets - 1) packets"), "\(tornReplay.stderr)")
        let tornFrames = try FrameLine.parse(tornReplay.stdout)
        #expect(tornFrames.count >= frames.count - 1 && tornFrames.count <= frames.count)
        #expect(Array(frames.prefix(tornFrames.count)) == tornFrames)
    }

    /// Identities and frame counts from `../shared/data/README.md` (tshark's reading).
    static let captures: [(file: String, frames: Int, ids: Set<String>?)] = [
        ("govee-h5100.btsnoop", 99, [
            "494E5445-4C4C-495F-524F-434B535F4857:20596:3932 -62", "494E5445-4C4C-495F-524F-434B535F4857:20596:25984 -62",
            "494E5445-4C4C-495F-524F-434B535F4857:20596:32020 -62", "494E5445-4C4C-495F-524F-434B535F4857:20596:39576 -62",
            "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 12", "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 -62",
            "494E5445-4C4C-495F-524F-434B535F4857:20855:62207 -62",
        ]),
        ("govee-h5075-h5074.btsnoop", 21, [
            "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:212:0 3", "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:4382:0 3",
            "1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6:4383:0 3", "2686F39C-BADA-4658-854A-A62E7E5E8B8D:1:0 -55",
            "494E5445-4C4C-495F-524F-434B535F4857:20596:3932 -62", "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 -62",
        ]),
        ("horizon74.btsnoop", 11, [
            "494E5445-4C4C-495F-524F-434B535F4857:20594:62207 -62", "494E5445-4C4C-495F-524F-434B535F4857:20597:62207 -62",
        ]),
        ("govee-misc.btsnoop", 5, nil), ("govee-h5105.pcapng", 35, nil), ("govee-20230127.pcapng", 17, nil),
        ("govee-5c0f-3.pcapng", 3, nil), ("govee-h5174-2.pcapng", 1, nil), ("govee-inout.pcap", 2, nil),
        ("govee-no-beacons.pcapng", 0, []), ("extcap-no-beacons.btsnoop", 0, []),
    ]

    @Test("replaying each real capture through scan FILE --json gives the README's frames and identities", arguments: captures)
    func realCaptures(file: String, frames: Int, ids: Set<String>?) throws {
        let result = try BeacontopBinary.run(["scan", SharedData.capture(file).path, "--json", "--frames", "--speed", "max"], limit: 60)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try FrameLine.parse(result.stdout).filter { $0.kind == "ibeacon" }
        #expect(lines.count == frames)
        if let ids {
            #expect(Set(lines.map { "\($0.id) \($0.measuredPower.map(String.init) ?? "nil")" }) == ids)
        }
        #expect(result.stderr.contains("end of replay"))
    }

    @Test("scan FILE --json prints the same ranging ticks as replay FILE --json (one schema, one pipeline)",
          arguments: ["govee-h5100.btsnoop", "govee-h5105.pcapng"])
    func scanTicksMatchReplay(file: String) throws {
        let path = SharedData.capture(file).path
        let scan = try BeacontopBinary.run(["scan", path, "--json"], limit: 60)
        let replay = try BeacontopBinary.run(["replay", path, "--json"], limit: 60)
        #expect(scan.status == 0, "\(scan.stderr)")
        let ticks = try TickLine.parse(scan.stdout)
        #expect(ticks.count > 10)
        #expect(ticks.contains { !$0.beacons.isEmpty })
        #expect(scan.stdout == replay.stdout)
    }

    @Test("--from/--to cut a replay by capture time")
    func window() throws {
        let all = try FrameLine.parse(try BeacontopBinary.run(["scan", SharedData.capture("govee-h5100.btsnoop").path, "--json", "--frames"], limit: 60).stdout)
        var reader = try CaptureReader(path: SharedData.capture("govee-h5100.btsnoop").path)
        let start = try #require(try reader.next()).timestamp
        let cut = try FrameLine.parse(try BeacontopBinary.run(
            ["scan", SharedData.capture("govee-h5100.btsnoop").path, "--json", "--frames", "--from", "60", "--to", "120"], limit: 60).stdout)
        #expect(!cut.isEmpty)
        #expect(cut.count < all.count)
        #expect(cut.allSatisfy { $0.t >= start + 60 && $0.t <= start + 120 })
        #expect(cut.count == all.count { $0.t >= start + 60 && $0.t <= start + 120 })
    }
}
