import BeaconFormats
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// beacontop against Bumble's controller emulation over H4/TCP: the scan and advertise
/// procedures, the transports and the decoders, end to end (docs/commands.md "beacontop scan", "beacontop advertise").
@Suite("Bumble end to end", .serialized)
struct BumbleEndToEndTests {
    /// What `Tests/bumble/beacon_world.py` advertises; the thermometer must not appear.
    static let expected: Set<String> = [
        "ibeacon E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1 -59 C0:00:00:00:00:01",
        "altbeacon 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:2 -59 C0:00:00:00:00:02",
        "eddystone-uid edd1ebeac04e5defa017:0badc0ffee01 -59 C0:00:00:00:00:03",
        "eddystone-url https://example.com -59 C0:00:00:00:00:04",
    ]

    static func summary(_ line: FrameLine) -> String {
        "\(line.kind) \(line.id) \(line.measuredPower.map(String.init) ?? "nil") \(line.address)"
    }

    @Test("scan tcp: reports exactly the world's beacons, with Bumble's RSSI of -50")
    func scanSeesTheWorld() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let result = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--frames", "--duration", "5"], limit: 30)
        #expect(result.status == 0, "beacontop scan failed: \(result.stderr)")
        let lines = try FrameLine.parse(result.stdout)
        #expect(lines.count >= 20, "only \(lines.count) frames in 5 s")
        #expect(lines.allSatisfy { $0.rssi == -50 }, "RSSI other than -50: \(Set(lines.map(\.rssi)))")
        #expect(Set(lines.map(Self.summary)) == Self.expected)
        // The closing count says why packets were dropped only when some were.
        let closing = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(closing.wholeMatch(of: /beacontop: tcp:127\.0\.0\.1:\d+: \d+ packets, 0 dropped/) != nil, "\(result.stderr)")
    }

    @Test("scan tcp: --json prints ranging ticks naming exactly the world's beacons")
    func scanTicksSeeTheWorld() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let result = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--duration", "4"], limit: 30)
        #expect(result.status == 0, "beacontop scan failed: \(result.stderr)")
        let ticks = try TickLine.parse(result.stdout)
        #expect(ticks.count >= 2, "only \(ticks.count) ticks in 4 s: \(result.stdout)")
        // Ticks fall on whole seconds of capture time, one per second.
        #expect(ticks.allSatisfy { $0.t == $0.t.rounded() })
        let heard = Set(ticks.flatMap(\.beacons).map { "\($0.kind) \($0.id) \($0.address)" })
        let expected = Set(Self.expected.map { line in
            let parts = line.split(separator: " ")
            return "\(parts[0]) \(parts[1]) \(parts[3])"
        })
        #expect(heard == expected)
        #expect(ticks.flatMap(\.beacons).allSatisfy { $0.rssi == -50 })
    }

    @Test("scan --active and explicit timing also work; passive is the default")
    func activeScan() throws {
        let world = try BumbleWorld(controllers: 1)
        defer { world.stop() }
        let result = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--frames", "--duration", "2", "--active", "--interval", "50", "--window", "25"],
            limit: 30)
        #expect(result.status == 0, "\(result.stderr)")
        let ids = Set(try FrameLine.parse(result.stdout).map(\.id))
        #expect(ids.contains("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1"))
    }

    static let advertised: [(arguments: [String], heard: String)] = [
        (["--ibeacon", "fda50693-a4e2-4fb1-afcf-c6eb07647825:7:9", "--measured-power", "-61"],
         "ibeacon FDA50693-A4E2-4FB1-AFCF-C6EB07647825:7:9 -61 A0:00:00:00:00:02"),
        (["--altbeacon", "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:65535:3"],
         "altbeacon 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:65535:3 -59 A0:00:00:00:00:02"),
        (["--eddystone-uid", "EDD1EBEAC04E5DEFA017:0BADC0FFEE02", "--measured-power", "-70"],
         "eddystone-uid edd1ebeac04e5defa017:0badc0ffee02 -70 A0:00:00:00:00:02"),
        (["--eddystone-url", "https://www.example.org/x"],
         "eddystone-url https://www.example.org/x -59 A0:00:00:00:00:02"),
    ]

    @Test("advertise on one controller; a scan on another controller of the link hears it; SIGINT stops it",
          arguments: advertised)
    func advertiseIsHeard(arguments: [String], heard: String) throws {
        let world = try BumbleWorld(controllers: 2, advertisers: false)
        defer { world.stop() }
        let advertiser = try BeacontopBinary.Running(
            ["advertise", "tcp:127.0.0.1:\(world.ports[1])", "--interval", "50ms"] + arguments)
        let deadline = Date().addingTimeInterval(20)
        while !advertiser.stderrText.contains("beacontop: advertising") && advertiser.process.isRunning && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let scan = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--frames", "--duration", "2"], limit: 30)
        kill(advertiser.process.processIdentifier, SIGINT)
        let advertised = advertiser.wait(limit: 10)
        #expect(advertised.status == 0, "advertise: \(advertised.stderr)")
        #expect(advertised.stderr.contains("extended advertising"), "\(advertised.stderr)")
        #expect(scan.status == 0, "\(scan.stderr)")
        let lines = try FrameLine.parse(scan.stdout)
        #expect(!lines.isEmpty, "the scan heard nothing: \(scan.stderr)")
        #expect(Set(lines.map(Self.summary)) == [heard])

        // Advertising stopped with the process: a second scan hears nothing.
        let after = try BeacontopBinary.run(
            ["scan", "tcp:127.0.0.1:\(world.ports[0])", "--json", "--frames", "--duration", "1.5"], limit: 30)
        #expect(after.status == 0)
        #expect(try FrameLine.parse(after.stdout).isEmpty, "still advertising after SIGINT")
    }

    @Test("advertise refuses a monitor source and a bad identity, naming the flag")
    func advertiseValidation() throws {
        let monitor = try BeacontopBinary.run(["advertise", "hci0:monitor", "--ibeacon", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"], limit: 20)
        #expect(monitor.status != 0)
        #expect(monitor.stderr.contains("does not take commands"), "\(monitor.stderr)")
        let bad = try BeacontopBinary.run(["advertise", "tcp:127.0.0.1:1", "--ibeacon", "E2C56DB5:1:2"], limit: 20)
        #expect(bad.stderr.contains("UUID 'E2C56DB5' is not 32 hex digits"), "\(bad.stderr)")
        let two = try BeacontopBinary.run(["advertise", "tcp:127.0.0.1:1", "--eddystone-url", "https://a.b", "--ibeacon", "x"], limit: 20)
        #expect(two.stderr.contains("exactly one of"), "\(two.stderr)")
    }

    @Test("a controller that goes away is reported, and scanning resumes when it is back")
    func reconnects() throws {
        var world: BumbleWorld? = try BumbleWorld(controllers: 1)
        let port = world!.ports[0]
        defer { world?.stop() }
        let scan = try BeacontopBinary.Running(["scan", "tcp:127.0.0.1:\(port)", "--json", "--frames"])
        // The loss comes once frames were heard: a fixed 2.5 s raced the scan's start on a loaded
        // machine.
        #expect(scan.waitUntil { !$0.stdoutText.isEmpty }, "no frame before the loss: \(scan.stderrText)")
        world?.stop()
        let restart = Date().timeIntervalSince1970
        world = try BumbleWorld(controllers: 1, ports: [port])
        // Until every beacon was heard again, however long the world took to come back: a fixed
        // '--duration 12' ended the scan before it reconnected when the world took 8 s under load.
        _ = scan.waitUntil(limit: 30) { Self.heard(after: restart, in: $0.stdoutText) == Self.expected }
        kill(scan.process.processIdentifier, SIGINT)
        let result = scan.wait(limit: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("tcp:127.0.0.1:\(port): lost (the other end closed the connection)"), "\(result.stderr)")
        #expect(result.stderr.contains("reconnecting in"))
        #expect(result.stderr.contains("tcp:127.0.0.1:\(port): connected"))
        let lines = try FrameLine.parse(result.stdout)
        #expect(lines.contains { $0.t < restart }, "frames before the loss")
        #expect(Self.heard(after: restart, in: result.stdout) == Self.expected, "the same beacons after the controller came back")
    }

    /// The beacons in the complete frame lines of `output` stamped after `time`.
    static func heard(after time: Double, in output: String) -> Set<String> {
        Set(output.split(separator: "\n").compactMap { try? FrameLine.parse(String($0)).first }.filter { $0.t > time }.map(Self.summary))
    }

    @Test("advertising resumes when its controller comes back")
    func advertiseReconnects() throws {
        var world: BumbleWorld? = try BumbleWorld(controllers: 2, advertisers: false)
        let ports = world!.ports
        defer { world?.stop() }
        let advertiser = try BeacontopBinary.Running([
            "advertise", "tcp:127.0.0.1:\(ports[1])", "--ibeacon", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:5:6",
        ])
        defer { kill(advertiser.process.processIdentifier, SIGINT) }
        // Lost once advertising, not after a fixed 2 s that raced its start on a loaded machine.
        #expect(advertiser.waitUntil { $0.stderrText.contains("beacontop: advertising") }, "\(advertiser.stderrText)")
        world?.stop()
        world = try BumbleWorld(controllers: 2, advertisers: false, ports: ports)
        #expect(advertiser.waitUntil(limit: 30) { $0.stderrText.contains("connected") }, "\(advertiser.stderrText)")
        #expect(advertiser.stderrText.contains("lost (the other end closed the connection)"), "\(advertiser.stderrText)")
        // A scan on the other controller until it hears the advertising again: a restart says
        // nothing when its first try works, and a fixed 0.5 s after 'connected', then a 2 s scan,
        // raced it (and a fixed '--duration 20' the world's return) on a loaded machine.
        let scan = try BeacontopBinary.Running(["scan", "tcp:127.0.0.1:\(ports[0])", "--json", "--frames"])
        _ = scan.waitUntil(limit: 30) { $0.stdoutText.contains("\n") }
        kill(scan.process.processIdentifier, SIGINT)
        let result = scan.wait(limit: 20)
        #expect(Set(try FrameLine.parse(result.stdout).map(\.id)) == ["E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:5:6"], "\(result.stderr)")
    }

    @Test("a source nobody listens on fails with the address and the reason")
    func refusedConnection() throws {
        let port = try BumbleWorld.freePort()
        let result = try BeacontopBinary.run(["scan", "tcp:127.0.0.1:\(port)", "--duration", "1"], limit: 20)
        #expect(result.status == 1)
        #expect(result.stderr.contains("tcp:127.0.0.1:\(port)"))
        #expect(result.stderr.contains("Connection refused"))
    }

    @Test("a malformed spec names the part that is wrong")
    func badSpec() throws {
        let result = try BeacontopBinary.run(["scan", "tcp:localhost:http", "--duration", "1"], limit: 20)
        #expect(result.status != 0)
        #expect(result.stderr.contains("PORT 'http' is not a port number"), "\(result.stderr)")
    }
}
