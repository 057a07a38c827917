import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// `beacontop monitor mqtt://BROKER` in a real terminal (tmux) on a real mosquitto: the table with
/// rooms and runner-up, the scanner list (`n`), the device list (`d`: a phone ESPresense reports by
/// its IRK, one by a name with a bidi override drawn harmless), a scanner going offline as an event
/// and its reading expiring, a hostile payload counted and never drawn, and the terminal restored on q.
@Suite("The venue monitor in tmux against a real mosquitto", .serialized)
struct VenueMonitorTerminalTests {
    init() throws {
        try TestPrerequisites.requireTmux()
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    /// Two phones the kitchen node hears, by ids that name no beacon: an IRK, and a name carrying a
    /// right-to-left override (the decoder lets it by: it refuses control characters only).
    static let phones = [("irk:a1b2c3d4", -55), ("name:\u{202E}enohp s'rotisiV", -66)]

    static func phone(_ id: String, rssi: Int) -> [UInt8] {
        Array(#"{"id":"\#(id)","rssi@1m":-59,"rssi":\#(rssi),"raw":0.7,"distance":0.7,"var":0.1,"int":100}"#.utf8)
    }

    @Test("Table with rooms, the n list, the d list of phones, an offline scanner's event and expiry, a hostile payload counted")
    func venueMonitor() async throws {
        let broker = try LocalMosquittoBroker()
        let session = try TmuxSession(
            command: "sh -c '\(VenueCommandTests.executable) monitor \(broker.url()); echo EXIT=$?; exec sh'",
            columns: 120, lines: 30, environment: ["LANG": "C.UTF-8", "TERM": "screen-256color"]
        )
        defer { session.kill() }
        try session.waitFor("No beacons heard yet")
        let nodes = try BrokerTests.client(broker.url(), id: BrokerTests.unique("nodes"))
        nodes.start()
        #expect(nodes.waitForFirstConnection(timeout: 10) == nil)
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/rooms/kitchen/status", text: "online", retain: true))
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/rooms/hall/status", text: "online", retain: true))

        // Publish on a thread of its own until told to stop: the kitchen node hears the beacon
        // close, the hall node far, four times a second, as ESPresense's firmware does. A thread,
        // not a Task: this test's waits block, and so do other suites' running beside it (the VM
        // suite's), which on two cores can hold every cooperative thread for minutes; a starved
        // feeder task once left the beacon unplaced for the whole 60 s wait.
        let running = Running()
        let feeder = Thread {
            while running.value {
                nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/kitchen", payload: VenueCommandTests.espresense(rssi: -61, distance: 1.2)))
                for (phone, rssi) in Self.phones {
                    nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(phone)/kitchen", payload: Self.phone(phone, rssi: rssi)))
                }
                if running.hallToo {
                    nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/hall", payload: VenueCommandTests.espresense(rssi: -82, distance: 9.5)))
                }
                usleep(250_000)
            }
            running.stopped.signal()
        }
        feeder.start()
        defer { running.value = false }
        // Every wait here is for the whole of what it asserts: a capture can be taken while ncurses is
        // still writing a frame (its top drawn, the rows below and the status line not yet).
        let table = try session.waitFor(timeout: 60, "the beacon placed in the kitchen, the hall's reading beside it") { screen in
            screen.split(separator: "\n").contains { $0.contains("kitchen (kitchen)") && $0.contains("hall 9.50") } && screen.contains("msg/s")
        }
        #expect(table.contains("ROOM (SCANNER)") && table.contains("RUNNER-UP"))
        // The status line counts what arrives: broker messages, not adverts.
        #expect(table.contains("msg/s") && !table.contains("adv/s"), "\(table)")
        let row = try #require(table.split(separator: "\n").first { $0.contains("kitchen (kitchen)") })
        #expect(row.contains("E2C56DB5") && row.contains("-61") && row.contains("1.20") && row.contains("hall 9.50"), "\(row)")

        // Enter: every scanner's reading side by side, the placing one marked.
        try session.send("Enter")
        let detail = try session.waitFor(timeout: 10, "the scanners side by side") { screen in
            screen.contains("LEVEL dB") && screen.contains("in kitchen") && screen.split(separator: "\n").contains { $0.hasPrefix(" hall") && $0.contains("9.50") }
        }
        let detailLines = detail.split(separator: "\n")
        #expect(detailLines.contains { $0.hasPrefix(">kitchen") && $0.contains("-61") && $0.contains("1.20") }, "\(detail)")
        #expect(detailLines.contains { $0.hasPrefix(" hall") && $0.contains("-82") && $0.contains("9.50") }, "\(detail)")
        try session.send("Escape")

        // d: the phones, which name no beacon, each with its room and the node placing it; the
        // bidi override drawn as a replacement, never sent to the terminal.
        try session.send("d")
        let devices = try session.waitFor(timeout: 30, "both phones placed in the kitchen") { screen in
            let lines = screen.split(separator: "\n")
            return screen.contains("DEVICE") && lines.contains { $0.hasPrefix(" irk:a1b2c3d4") && $0.contains("kitchen") }
                && lines.contains { $0.hasPrefix(" name:\u{FFFD}enohp s'rotisiV") && $0.contains("kitchen") }
        }
        let irk = try #require(devices.split(separator: "\n").first { $0.hasPrefix(" irk:a1b2c3d4") })
        #expect(irk.contains("kitchen") && irk.contains("-55") && irk.contains("0.70"), "\(irk)")
        #expect(devices.contains("2 devices") && !devices.unicodeScalars.contains("\u{202E}"), "\(devices)")
        try session.send("Escape")

        try session.send("n")
        let list = try session.waitFor(timeout: 10, "the scanner list") { screen in
            screen.contains("SCANNER") && screen.contains("MSG/s") && screen.split(separator: "\n").contains { $0.hasPrefix(" hall") && $0.contains("online") }
        }
        let lines = list.split(separator: "\n")
        let kitchen = try #require(lines.first { $0.hasPrefix(" kitchen") })
        #expect(kitchen.contains("online"))
        #expect(lines.contains { $0.hasPrefix(" hall") && $0.contains("online") })

        // The hall node says it is going (its will) and stops: an event, and its reading expires.
        running.hallToo = false
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/rooms/hall/status", text: "offline", retain: true))
        _ = try session.waitFor(timeout: 10, "hall offline in the list") { screen in
            screen.split(separator: "\n").contains { $0.hasPrefix(" hall") && $0.contains("offline") }
        }
        try session.send("e")
        _ = try session.waitFor(timeout: 10, "the offline event") { $0.contains("scanner hall offline") }
        try session.send("Escape")
        let after = try session.waitFor(timeout: 10, "the runner-up gone") { screen in
            screen.split(separator: "\n").contains { $0.contains("kitchen (kitchen)") && !$0.contains("hall 9.50") }
        }
        #expect(!after.contains("hall 9.50"))

        // A hostile name: counted on the status line, never drawn (no clear-screen, no title change).
        nodes.publish(MQTTOutgoingMessage(topic: "espresense/devices/x/kitchen", payload: Array(#"{"id":"\u001b[2J\u001b]0;pwned\u0007","rssi":-50}"#.utf8)))
        let counted = try session.waitFor(timeout: 10, "the malformed count") { $0.contains("1 malformed") }
        #expect(!counted.contains("pwned"))
        #expect(try session.format("#{pane_title}") != "pwned")

        running.value = false
        running.stopped.wait()
        try session.send("q")
        try session.waitFor("EXIT=0")
        #expect(try session.format("#{alternate_on}") == "0")
        nodes.stop()
    }
}

/// Flags the feeder thread reads, and its signal that it has stopped.
final class Running: @unchecked Sendable {
    let stopped = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var _value = true
    private var _hall = true
    var value: Bool {
        get { lock.withLock { _value } }
        set { lock.withLock { _value = newValue } }
    }
    var hallToo: Bool {
        get { lock.withLock { _hall } }
        set { lock.withLock { _hall = newValue } }
    }
}
}
