import Foundation
import TestFixtures
import Testing

/// `--from` and `--to` that are no point in a capture: refused as a usage error (status 64) by
/// scan and monitor alike. NaN passed every comparison and replayed the whole capture; `--to=-5`
/// replayed nothing with status 0.
@Suite struct ReplayWindowArgumentTests {
    init() throws {
        try TestPrerequisites.requireExecutable(beacontopExecutable)
    }

    @Test("NaN, infinite or negative --from/--to and a reversed window are refused, naming the flag", arguments: [
        (["--from=nan"], "--from must be a number of seconds, at least 0"),
        (["--from=-5"], "--from must be a number of seconds, at least 0"),
        (["--to=nan"], "--to must be a number of seconds, at least 0"),
        (["--to=-5"], "--to must be a number of seconds, at least 0"),
        (["--to=inf"], "--to must be a number of seconds, at least 0"),
        (["--from", "100", "--to", "10"], "--to must be after --from"),
    ])
    func refused(window: [String], message: String) throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        for command in [["scan", walk, "--json"], ["monitor", walk]] {
            let run = try HostileInputCommandTests.run(command + window, timeout: 30)
            #expect(run.status == 64, "\(command + window): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains("Error: \(message)"), "\(command + window): \(run.stderr)")
        }
    }

    /// `scan sim:CATALOG --from 10 --to 20` walked from the start for ever and `scan tcp:... --to 5`
    /// scanned on, as `monitor tcp:... --speed 2` did: the flags were ignored without a word. Refused before any source opens (the
    /// tcp: port has no controller behind it: a refusal at the socket would be status 1).
    @Test("--from, --to on a sim: walk or a live source, and --speed, --loop on a live one, are refused as usage errors", arguments: [
        (["scan", "SIM", "--json", "--from", "10"], "Error: --from and --to pick part of a file; sim:"),
        (["scan", "SIM", "--json", "--to", "20"], "Error: --from and --to pick part of a file; sim:"),
        (["monitor", "SIM", "--from", "10"], "Error: --from and --to pick part of a file; sim:"),
        (["scan", "tcp:127.0.0.1:9", "--json", "--to", "5"], "Error: --from and --to pick part of a file; tcp:127.0.0.1:9 is no file"),
        (["scan", "tcp:127.0.0.1:9", "--json", "--speed", "2"], "Error: --speed is for a file or a sim: walk; tcp:127.0.0.1:9 is a live source"),
        (["scan", "tcp:127.0.0.1:9", "--json", "--loop"], "Error: --loop is for a file or a sim: walk; tcp:127.0.0.1:9 is a live source"),
        (["monitor", "tcp:127.0.0.1:9", "--loop"], "Error: --loop is for a file or a sim: walk; tcp:127.0.0.1:9 is a live source"),
        // The monitor's --speed had a default, so whether it was given was not known: ignored.
        (["monitor", "tcp:127.0.0.1:9", "--speed", "2"], "Error: --speed is for a file or a sim: walk; tcp:127.0.0.1:9 is a live source"),
        (["monitor", "mqtt://127.0.0.1:9", "--speed", "1"], "Error: --speed is for a file or a sim: walk; mqtt://127.0.0.1:9 is a broker"),
    ])
    func replayFlagsOnANonFile(arguments: [String], message: String) throws {
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let command = arguments.map { $0 == "SIM" ? "sim:" + catalog : $0 }
        let run = try HostileInputCommandTests.run(command + ["--duration", "3"].filter { _ in command[0] == "scan" }, timeout: 30)
        #expect(run.status == 64, "\(command): \(run.status) \(run.stderr)")
        #expect(run.stderr.hasPrefix(message), "\(command): \(run.stderr)")
    }

    @Test("a --speed out of range is refused naming the flag and its value, not as a source")
    func speedOutOfRange() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let survey = FileManager.default.temporaryDirectory.appendingPathComponent("speed-\(UUID().uuidString.prefix(8))").path
        for command in [["scan", walk, "--json"], ["monitor", walk], ["survey", walk, "--out", survey]] {
            let run = try HostileInputCommandTests.run(command + ["--speed", "0"], timeout: 30)
            #expect(run.status == 64, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: --speed 0: must be 0.25 to 100, or max\n"), "\(command): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: survey))
    }

    @Test("scan sim:CATALOG without --speed walks in real time (a file's default, max, is no speed for a walk)")
    func simulationWithoutSpeed() throws {
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        let run = try HostileInputCommandTests.run(["scan", "sim:" + catalog, "--json", "--duration", "2"], timeout: 30)
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        // The last tick is written at the end whatever the machine's load: at least one line.
        #expect(run.stdout.hasPrefix("{\"t\":1767258"), "\(run.stdout.prefix(200)) \(run.stderr)")
    }

    @Test("a negative --from, --to or --duration given apart from its flag is refused naming the flag, not as a missing value")
    func negativeValueApart() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let cases: [([String], String)] = [
            (["scan", walk, "--json", "--duration", "-1"], "--duration must be a positive number of seconds, got -1.0"),
            (["scan", walk, "--json", "--from", "-5"], "--from must be a number of seconds, at least 0"),
            (["scan", walk, "--json", "--to", "-5"], "--to must be a number of seconds, at least 0"),
            (["monitor", walk, "--from", "-5"], "--from must be a number of seconds, at least 0"),
        ]
        for (arguments, message) in cases {
            let run = try HostileInputCommandTests.run(arguments, timeout: 30)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: \(message)\n"), "\(arguments): \(run.stderr)")
        }
    }

    /// `advertise --duration nan` passed its `<= 0` check and advertised until a signal (a NaN
    /// delay never elapses); `-1` was taken for a missing value. Refused as scan refuses them,
    /// before the controller is opened (hci9: none needed).
    @Test("advertise refuses a --duration that is not a positive finite number of seconds, as scan does")
    func advertiseDurationRefused() throws {
        let beacon = ["advertise", "hci9", "--ibeacon", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", "--duration"]
        for (value, shown) in [("nan", "nan"), ("inf", "inf"), ("-1", "-1.0"), ("0", "0.0")] {
            let run = try HostileInputCommandTests.run(beacon + [value], timeout: 30)
            #expect(run.status == 64, "\(value): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: --duration must be a positive number of seconds, got \(shown)\n"), "\(value): \(run.stderr)")
        }
    }

    @Test("--speed max on a sim: walk is a usage error (status 64) for scan and monitor, said before anything opens")
    func simulationAtMaxSpeed() throws {
        let catalog = SharedData.repositoryRoot.appendingPathComponent("demo/museum.yaml").path
        for command in [["scan", "sim:" + catalog, "--json"], ["monitor", "sim:" + catalog]] {
            let run = try HostileInputCommandTests.run(command + ["--speed", "max"], timeout: 30)
            #expect(run.status == 64, "\(command): \(run.status) \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: --speed max: a sim: walk has no end to run to; give 0.25 to 100\n"), "\(command): \(run.stderr)")
        }
    }

    @Test("a window inside the capture still replays")
    func accepted() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let run = try HostileInputCommandTests.run(["scan", walk, "--json", "--from", "10", "--to", "20"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count >= 9, "\(run.stdout.prefix(300))")
    }

    @Test("--from past the end of a capture or a venue recording: said, with the file's span, and status 64")
    func fromPastTheEnd() throws {
        let walk = SharedData.repositoryRoot.appendingPathComponent("demo/museum-walk.btsnoop").path
        let venue = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path
        // The venue recording's replay ends at its bad line (line 1500, 89.5 s in).
        for (file, span) in [(walk, "0-210.7"), (venue, "0-89.5")] {
            for extra in [[String](), ["--loop"]] {
                let run = try HostileInputCommandTests.run(["scan", file, "--json", "--speed", "max", "--from", "500"] + extra, timeout: 60)
                #expect(run.status == 64, "\(file) \(extra): \(run.status) \(run.stderr)")
                #expect(run.stderr.contains("beacontop: \(file): --from 500 s is past the end: the file spans \(span) s; nothing replayed"),
                        "\(file) \(extra): \(run.stderr)")
                #expect(run.stdout.isEmpty || !run.stdout.contains("\"beacons\":[{"), "\(file): \(run.stdout.prefix(200))")
            }
        }
        // Just past the end (210.768 s): --from is said as given, not rounded down onto the span's end.
        let justPast = try HostileInputCommandTests.run(["scan", walk, "--json", "--from", "210.77"], timeout: 60)
        #expect(justPast.status == 64)
        #expect(justPast.stderr.contains(": --from 210.77 s is past the end: the file spans 0-210.7 s; nothing replayed"), "\(justPast.stderr)")
    }
}
