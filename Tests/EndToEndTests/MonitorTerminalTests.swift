import Foundation
import Glibc
import TestFixtures
import Testing

/// `swift test` builds every product of the package into the same directory.
let beacontopExecutable = SharedData.repositoryRoot.appendingPathComponent(".build/debug/beacontop").path

/// `beacontop monitor` and `beacontop demo` in a real terminal (tmux): what a person sees, the keys,
/// and the terminal handed back in working order.
@Suite(.serialized)
struct MonitorTerminalTests {
    /// Fails every test, with what to do, when tmux or beacontop is missing (never a silent skip).
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    static let environment = ["LANG": "C.UTF-8", "TERM": "screen-256color"]

    /// Runs `arguments` under a shell that reports the exit status, then hands the terminal to an
    /// interactive shell: a prompt that works afterwards is the proof the terminal was restored.
    static func start(_ arguments: String, in directory: String = SharedData.repositoryRoot.path, columns: Int = 110, lines: Int = 32) throws -> TmuxSession {
        try TmuxSession(
            command: "sh -c 'cd \(directory) && \(beacontopExecutable) \(arguments); echo EXIT=$?; exec sh'",
            columns: columns, lines: lines, environment: environment
        )
    }

    /// After q: the exit status, cooked terminal modes, no alternate screen, and a shell that answers.
    static func expectRestored(_ session: TmuxSession) throws {
        try session.waitFor("EXIT=0")
        #expect(try session.format("#{alternate_on}") == "0")
        #expect(try session.format("#{cursor_flag}") == "1")
        try session.send("stty -a; echo $((40 + 2))DONE", "Enter")
        let after = try session.waitFor("42DONE")
        let modes = after.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        for mode in ["icanon", "echo", "icrnl", "opost", "isig"] {
            #expect(modes.contains(Substring(mode)), "\(mode) is off after q")
        }
    }

    @Test func theDemoShowsTheMuseumAndTheNearestExhibitPanel() throws {
        // From another directory: the catalog is found beside the executable, up to the package root.
        let session = try Self.start("demo --speed 4", in: NSTemporaryDirectory())
        defer { session.kill() }
        try session.waitFor("The Little Museum of Clever Things")
        #expect(try session.format("#{alternate_on}") == "1")
        // The panel whole: its heading and the description line under it (a capture can fall
        // between the two rows of one redraw, when the panel has just appeared).
        let screen = try session.waitFor(timeout: 20, "the nearest exhibit's panel") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard let heading = lines.firstIndex(where: { $0.hasPrefix("── ") && ($0.contains("· near") || $0.contains("· immediate")) }),
                  heading + 1 < lines.count else { return false }
            return lines[heading + 1].trimmingCharacters(in: .whitespaces).count >= 30
        }
        #expect(screen.contains("10 beacons"))
        #expect(screen.contains("Rosetta Stone (cast)"))
        #expect(screen.contains("sim:"))
        // The panel names a catalog exhibit and shows the start of its description under it.
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let heading = try #require(lines.firstIndex { $0.hasPrefix("── ") && ($0.contains("· near") || $0.contains("· immediate")) })
        let catalog = try String(contentsOf: SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml"), encoding: .utf8)
        let descriptionStart = String(lines[heading + 1].trimmingCharacters(in: .whitespaces).prefix(30))
        #expect(descriptionStart.count == 30 && catalog.contains(descriptionStart), "panel text: \(lines[heading + 1])")
        // The event log: the visitor entered exhibits' regions, named as the table names them (it
        // showed each exhibit's id), and the nearest changed.
        try session.send("e")
        let names = catalog.split(separator: "\n").compactMap { line -> String? in
            let field = line.trimmingCharacters(in: .whitespaces)
            return field.hasPrefix("name: ") ? String(field.dropFirst(6)) : nil
        }
        // Waits for everything it asserts: a capture can land while a frame is still being written.
        let log = try session.waitFor(timeout: 10, "region events in the log") { screen in
            screen.contains("nearest: ") && screen.split(separator: "\n").contains { line in
                names.contains { line.contains(" enter    " + $0) }
            }
        }
        let regionLines = log.split(separator: "\n").filter { $0.contains(" enter ") || $0.contains(" exit ") }
        #expect(!regionLines.contains { $0.contains("8F3A2C61-") }, "\(log)")
        try session.send("Escape")
        try session.send("q")
        try Self.expectRestored(session)
    }

    @Test func theSimSourceWalksACatalogAndRecords() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-sim-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/tradeshow.yaml").path
        let session = try Self.start("monitor sim:\(catalog) --speed 4 --record walk.btsnoop", in: directory.path)
        defer { session.kill() }
        // A beacon heard, not only the title's count: "0 beacons" is on screen before the first
        // packet, and a `q` then leaves a recording with nothing but its header (seen under load).
        let screen = try session.waitFor(timeout: 15, "the trade show's beacons") { screen in
            screen.contains("sim:") && screen.contains(" beacons ·") && !screen.contains("No beacons heard yet") && screen.contains("REC walk.btsnoop")
        }
        #expect(screen.contains("scanning"))
        try session.send("q")
        try Self.expectRestored(session)
        let size = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("walk.btsnoop").path)[.size] as? Int
        #expect((size ?? 0) > 16)
    }

    @Test func theDemoWithoutItsCatalogSaysWhereItLooked() throws {
        let copy = NSTemporaryDirectory() + "beacontop-alone-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        let session = try TmuxSession(
            command: "sh -c 'cd / && cp \(beacontopExecutable) \(copy) && \(copy) demo; echo EXIT=$?; sleep 30'",
            columns: 200, lines: 10, environment: Self.environment
        )
        defer { session.kill() }
        let screen = try session.waitFor("EXIT=1")
        #expect(screen.contains("demo/museum.yaml not found"))
        #expect(screen.contains("--exhibits"))
    }

    @Test func keysOnAReplayedCaptureAndQRestoresTheTerminal() throws {
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let session = try Self.start("monitor \(capture) --speed 20 --loop")
        defer { session.kill() }
        // The status line too, below the row: a capture can land while a frame is still being written.
        let table = try session.waitFor(timeout: 15, "a ranged beacon row and the status line") { $0.contains("494E5445…") && $0.contains("replaying at 20x") }
        #expect(table.contains("PROXIMITY"))
        try session.send("s")
        try session.waitFor("sort: rssi")
        try session.send("Down", "Enter")
        // Wait for what is asserted, not only a heading: tmux can be caught between the chunks
        // of one frame when the machine is loaded.
        let filters = ["adaptive", "running-average", "arma", "kalman", "iqm"]
        let detail = try session.waitFor("the detail pane with every filter") { screen in
            screen.contains("Last raw frame") && filters.allSatisfy { screen.contains($0) }
        }
        #expect(detail.contains("· detail"))
        try session.send("Escape", "?")
        // The help screen is drawn from the key table: a binding's own words show.
        try session.waitFor("the help screen with the key table") { screen in
            ["Keys (Esc or ? returns)", "sort by distance, RSSI, name, id", "quit (the terminal is restored)"].allSatisfy { screen.contains($0) }
        }
        try session.send("Escape", "f")
        try session.waitFor("filter: running-average")
        try session.send("Space")
        try session.waitFor("paused")
        try session.send("q")
        try Self.expectRestored(session)
    }

    /// A closed terminal (SIGHUP) and SIGQUIT end `beacontop monitor` through the same clean-up as q.
    @Test(arguments: [SIGHUP, SIGQUIT])
    func hangUpAndQuitRestoreTheTerminal(signal: Int32) throws {
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let session = try Self.start("monitor \(capture) --speed 20 --loop")
        defer { session.kill() }
        try session.waitFor(timeout: 15, "a ranged beacon row") { $0.contains("494E5445…") }
        let monitor = try #require(try session.childProcessIDs().first)
        #expect(Glibc.kill(monitor, signal) == 0)
        try Self.expectRestored(session)
        #expect(try session.format("#{mouse_any_flag}") == "0")
        #expect(try session.format("#{keypad_cursor_flag}") == "0")
    }

    /// The status line's replay position (`mm:ss`, the last line of the screen).
    static func position(_ screen: String) -> String? {
        guard let line = screen.split(separator: "\n").last(where: { $0.contains("replaying") }),
              let range = line.range(of: #"\d\d:\d\d"#, options: .regularExpression) else { return nil }
        return String(line[range])
    }

    @Test func leftAndRightSeekTheReplay() throws {
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let session = try Self.start("monitor \(capture) --speed 1")
        defer { session.kill() }
        try session.waitFor(timeout: 15, "the replay position") { Self.position($0)?.hasPrefix("00:0") == true }
        try session.send("Right", "Right", "Right")
        // At real time the position would need half a minute to get here.
        try session.waitFor(timeout: 10, "the position 30 s on") { Self.position($0)?.hasPrefix("00:3") == true }
        try session.send("Left", "Left")
        try session.waitFor(timeout: 10, "the position 20 s back") { Self.position($0)?.hasPrefix("00:1") == true }
        try session.send("q")
        try Self.expectRestored(session)
    }

    @Test func recordingStartsWithRecordAndRToggles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-rec-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let capture = SharedData.capture("govee-h5100.btsnoop").path
        let session = try Self.start("monitor \(capture) --speed 50 --loop --record first.btsnoop", in: directory.path)
        defer { session.kill() }
        try session.waitFor("REC first.btsnoop")
        try Self.waitForBeaconFrames(in: directory.appendingPathComponent("first.btsnoop").path)
        try session.send("r")
        try session.waitFor(timeout: 10, "the REC indicator gone") { !$0.contains("REC first") }
        try session.send("r")
        let recording = try session.waitFor("REC beacontop-")
        let name = try #require(recording.range(of: #"beacontop-[0-9]{8}-[0-9]{6}\.btsnoop"#, options: .regularExpression).map { String(recording[$0]) })
        try Self.waitForBeaconFrames(in: directory.appendingPathComponent(name).path)
        try session.send("r")
        try session.waitFor(timeout: 10, "the REC indicator gone") { !$0.contains("REC beacontop-") }
        try session.send("q")
        try Self.expectRestored(session)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".btsnoop") }.sorted()
        #expect(files.count == 2)
        #expect(files.first { $0.hasPrefix("beacontop-") }.map { $0.count == "beacontop-20261122-041512.btsnoop".count } == true)
        // Both recordings replay: beacon frames come back out of each.
        for file in files {
            let scan = Process()
            scan.executableURL = URL(fileURLWithPath: beacontopExecutable)
            scan.arguments = ["scan", directory.appendingPathComponent(file).path, "--json", "--frames"]
            let out = Pipe()
            scan.standardOutput = out
            scan.standardError = FileHandle.nullDevice
            try scan.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            scan.waitUntilExit()
            #expect(text.contains("\"kind\":\"ibeacon\""), "\(file) holds no beacon frames")
        }
    }

    /// Waits until the recording at `path` holds a beacon frame (`scan --frames` of it prints one).
    /// A fixed second "to let some of the capture through" before each toggle raced the replay's
    /// thread: on a loaded machine it can get no turn in a second, and the recording held no frame.
    static func waitForBeaconFrames(in path: String, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var found = false
        while !found && Date() < deadline {
            // A record cut short at the end (the writer is mid-write) fails the scan, not this wait.
            let scan = try? ExternalCommand.run(beacontopExecutable, ["scan", path, "--json", "--frames"])
            found = scan?.stdout.contains("\"kind\":\"ibeacon\"") == true
            if !found { usleep(100_000) }
        }
        try #require(found, "no beacon frame recorded in \(path) within \(timeout) s")
    }

    @Test func theCalibrationWizardSavesIntoTheCatalogKeepingItsComments() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-cal-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = Self.pillarID
        try Self.writePillarScript(packets: 40, in: directory)
        let catalog = """
            # venue notes: keep this comment
            title: Calibration Hall
            exhibits:
              - id: "\(id)"   # on the pillar
                name: Pillar beacon
                description: The one by the pillar.

            """
        try catalog.write(to: directory.appendingPathComponent("hall.yaml"), atomically: true, encoding: .utf8)

        let session = try Self.start("monitor pillar.ndjson --exhibits hall.yaml --loop --speed 4", in: directory.path)
        defer { session.kill() }
        try session.waitFor("Pillar beacon")
        try session.send("c")
        try session.waitFor("Calibration: hold Pillar beacon 1 m from the receiver")
        let done = try session.waitFor(timeout: 15, "20 samples") { $0.contains("Enter saves -61 dBm") && $0.contains("Measured power at 1 m: ") }
        // The 10%-trimmed mean of -60/-62 samples: -61 give or take a sample's imbalance.
        #expect(done.contains("Measured power at 1 m: -61.0 dBm") || done.contains("Measured power at 1 m: -60.9 dBm") || done.contains("Measured power at 1 m: -61.1 dBm"))
        try session.send("Enter")
        try session.waitFor("Saved -61 dBm as the catalog override in hall.yaml")
        try session.send("q")
        try Self.expectRestored(session)

        let saved = try String(contentsOf: directory.appendingPathComponent("hall.yaml"), encoding: .utf8)
        #expect(saved == catalog.replacingOccurrences(of: "    name: Pillar beacon", with: "    measuredPower: -61\n    name: Pillar beacon"))
    }

    /// A calibration that cannot be written (a full disk; here a file size limit of 0, which fails
    /// the write the same way) says so on the wizard, in words, and leaves the catalog as it was.
    @Test func aCalibrationThatCannotBeSavedSaysSoOnTheWizard() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-calfull-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writePillarScript(packets: 40, in: directory)
        let catalog = "title: Calibration Hall\nexhibits:\n  - id: \"\(Self.pillarID)\"\n    name: Pillar beacon\n"
        try catalog.write(to: directory.appendingPathComponent("hall.yaml"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            command: "sh -c 'cd \(directory.path) && trap \"\" XFSZ && ulimit -f 0 && \(beacontopExecutable) monitor pillar.ndjson --exhibits hall.yaml --loop --speed 4; echo EXIT=$?; exec sh'",
            columns: 110, lines: 32, environment: Self.environment
        )
        defer { session.kill() }
        try session.waitFor("Pillar beacon")
        try session.send("c")
        try session.waitFor(timeout: 15, "20 samples") { $0.contains("Enter saves -61 dBm") }
        try session.send("Enter")
        let failed = try session.waitFor(timeout: 15, "the failure on the wizard") {
            $0.contains("Calibration not saved to hall.yaml: File too large") && $0.contains("Esc cancels.")
        }
        #expect(failed.contains("Enter tries again; Esc cancels."))
        #expect(!failed.contains("NSCocoaErrorDomain"))
        try session.send("q")
        try Self.expectRestored(session)
        #expect(try String(contentsOf: directory.appendingPathComponent("hall.yaml"), encoding: .utf8) == catalog)
    }

    static let pillarID = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:7"

    /// `pillar.ndjson`: the pillar's beacon heard 10 times a second at -60 and -62 dBm in turn
    /// (a calibration's trimmed mean of -61 dBm).
    static func writePillarScript(packets: Int, in directory: URL) throws {
        let script = (0..<packets).map { "{\"t\": \(Double($0) * 0.1), \"address\": \"C0:00:00:00:00:07\", \"rssi\": \($0 % 2 == 0 ? -60 : -62), \"ibeacon\": \"\(pillarID)\"}" }
        try script.joined(separator: "\n").write(to: directory.appendingPathComponent("pillar.ndjson"), atomically: true, encoding: .utf8)
    }

    /// Saving a calibration hands the engine the new catalog without restarting it: the visitor
    /// inside the pillar's region stays inside (one `enter` in the log, not a second at the save).
    @Test func savingACalibrationFiresNoSecondEnter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-calsave-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = Self.pillarID
        // 90 s at 10 packets/s, replayed at 2x: 45 s, longer than the wizard and the log take.
        try Self.writePillarScript(packets: 900, in: directory)
        try "exhibits:\n  - id: \"\(id)\"\n    name: Pillar beacon\n".write(to: directory.appendingPathComponent("hall.yaml"), atomically: true, encoding: .utf8)

        let session = try Self.start("monitor pillar.ndjson --exhibits hall.yaml --speed 2", in: directory.path)
        defer { session.kill() }
        try session.waitFor("Pillar beacon")
        try session.send("c")
        try session.waitFor(timeout: 15, "the wizard done") { $0.contains("Enter saves -61 dBm") }
        try session.send("Enter")
        try session.waitFor("Saved -61 dBm as the catalog override in hall.yaml")
        try session.send("Escape")
        // Two seconds of capture time and more: the ticks after the save have ranged with the new catalog.
        usleep(1_500_000)
        try session.send("e")
        let log = try session.waitFor(timeout: 10, "the save in the log") { $0.contains("calibration: measuredPower -61 saved to hall.yaml") }
        // The region is the exhibit's own, logged by its name.
        let enters = log.split(separator: "\n").filter { $0.contains(" enter ") && $0.contains("Pillar beacon") }
        #expect(enters.count == 1, "\(log)")
        #expect(!log.contains(" exit "), "\(log)")
        try session.send("Escape")
        try session.waitFor("replaying at 2x")  // still replaying: the log was read before the file ended
        try session.send("q")
        try Self.expectRestored(session)
        #expect(try String(contentsOf: directory.appendingPathComponent("hall.yaml"), encoding: .utf8).contains("measuredPower: -61"))
    }

    /// An Eddystone-URL whose URL bytes are terminal escape sequences (set the window title, clear
    /// the screen): the decoder percent-escapes them and the renderer draws them as text.
    @Test func anEscapeSequenceInAnEddystoneURLIsDrawnHarmlessly() throws {
        let url: [UInt8] = [0x1B] + Array("]0;pwned".utf8) + [0x07, 0x1B] + Array("[2J".utf8)
        let serviceData: [UInt8] = [0xAA, 0xFE, 0x10, 0xEB, 0x03] + url
        let data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, UInt8(serviceData.count + 1), 0x16] + serviceData
        let hex = data.map { String(format: "%02x", $0) }.joined()
        let script = (0..<50).map { "{\"t\": \(Double($0) * 0.1), \"address\": \"C0:00:00:00:00:09\", \"rssi\": -55, \"data\": \"\(hex)\"}" }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ndjson")
        try (["# an Eddystone-URL carrying OSC 0 (window title) and ED (clear screen)"] + script).joined(separator: "\n").write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }

        let session = try Self.start("monitor \(path.path) --loop --speed 4")
        defer { session.kill() }
        let screen = try session.waitFor(".com%1B[2J")
        // 0x07 is Eddystone's ".com" expansion (Eddystone-URL spec, URL encoding), so the BEL that would
        // end the OSC never reaches the screen either; ESC is shown as %1B.
        #expect(screen.contains("https://%1B]0;pwned.com%1B[2J"))
        #expect(!(try session.format("#{pane_title}")).contains("pwned"))
        #expect(screen.contains("PROXIMITY"), "the screen was cleared")
        // The 5 s script at 4x has looped by now: a looping replay still says it is replaying.
        usleep(2_000_000)
        #expect(try session.capture().contains("replaying at 4x"))
        try session.send("q")
        try Self.expectRestored(session)
    }
}
