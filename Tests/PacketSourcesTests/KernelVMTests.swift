import Foundation
import Testing
import TestFixtures

/// beacontop on a real Linux Bluetooth stack: Debian's kernel in qemu, hci0 a Bumble controller
/// behind /dev/vhci (docs/testing-vm.md), no bluetoothd, as on a minimal install. Each test asserts
/// what a user sees (stdout, stderr, exit status, the screen) in one case's run (`Tests/vm/cases`).
@Suite("Kernel HCI in a VM", .serialized, .onWaitingThread)
struct KernelVMTests {
    /// The world's four beacons (the thermometer is not one), as `scan --frames` names them.
    static let expected = BumbleEndToEndTests.expected

    static func summaries(_ frames: [FrameLine]) -> Set<String> { Set(frames.map(BumbleEndToEndTests.summary)) }

    /// Frames per second of each address over the span it was heard.
    static func rates(_ frames: [FrameLine]) -> [String: Double] {
        Dictionary(grouping: frames, by: \.address).mapValues { lines in
            let times = lines.map(\.t)
            return Double(lines.count - 1) / max(0.001, times.max()! - times.min()!)
        }
    }

    @Test("scan hci0 on an adapter that is down: beacontop brings it up, says so, and hears exactly the world at its rate")
    func scanBringsUpAndHearsTheWorld() throws {
        let run = try KernelVM.run("scan")
        #expect(run.status("scan") == 0, "\(run.text("scan.err"))")
        #expect(run.lines("scan.err").first == "beacontop: hci0:raw: the adapter was down; beacontop brought it up (HCIDEVUP, with CAP_NET_ADMIN)")
        let frames = try run.frames("scan")
        #expect(Self.summaries(frames) == Self.expected)
        #expect(frames.allSatisfy { $0.rssi == -50 }, "Bumble's RSSI is -50: \(Set(frames.map(\.rssi)))")
        // Each advertiser sends every 100 ms: about 10 frames a second each (20 if every
        // advertisement came twice, as Bumble's passive scan would report it without the world's fix).
        for (address, rate) in Self.rates(frames) {
            #expect((8.0...11.0).contains(rate), "\(address): \(rate) frames/s")
        }
    }

    @Test("scan --record: tshark reads the recording, with as many reports per beacon as frames printed")
    func recordingReadsBackInTshark() throws {
        let run = try KernelVM.run("scan")
        let frames = try run.frames("scan")
        let recording = run.directory.appendingPathComponent("scan.btsnoop").path
        let (status, text) = try RecordReplayEndToEndTests.tshark(
            ["-r", recording, "-Y", "bthci_evt.le_meta_subevent == 0x0d", "-T", "fields", "-e", "bthci_evt.bd_addr"])
        #expect(status == 0)
        let tsharkCounts = Dictionary(grouping: text.split(separator: "\n").map { $0.uppercased() }, by: { $0 }).mapValues(\.count)
        let printed = Dictionary(grouping: frames, by: \.address).mapValues(\.count)
        #expect(printed.count == 4)
        for (address, count) in printed {
            #expect(tsharkCounts[address] == count, "\(address): tshark \(tsharkCounts[address] ?? 0) reports, beacontop \(count) frames")
        }
        #expect((tsharkCounts["C0:00:00:00:00:05"] ?? 0) > 0, "the thermometer's reports are recorded too")
    }

    @Test("hci0:monitor while another process scans: ranging ticks name the world's beacons at about 10 packets a second")
    func monitorChannelListensToAnotherScan() throws {
        let run = try KernelVM.run("scan")
        #expect(run.status("monitor-channel") == 0, "\(run.text("monitor-channel.err"))")
        let ticks = try TickLine.parse(run.text("monitor-channel.out"))
        #expect(ticks.count >= 3, "\(ticks.count) ticks in 5 s")
        let heard = Set(ticks.flatMap(\.beacons).map { "\($0.kind) \($0.id) \($0.address)" })
        #expect(heard == Set(Self.expected.map { line in
            let parts = line.split(separator: " ")
            return "\(parts[0]) \(parts[1]) \(parts[3])"
        }))
        let rates = try rateFields(run.text("monitor-channel.out"))
        // Under TCG the guest hears the world in bursts: one tick's rate reached 12.6 in a CI run
        // while the run's median stayed at 10.7. Each tick within 7-13, the median within 9-11.5:
        // a doubled (scan responses counted) or halved rate still fails.
        let sorted = rates.sorted()
        #expect(!rates.isEmpty && rates.allSatisfy { (7.0...13.0).contains($0) }, "packetsPerSecond: \(rates)")
        #expect(sorted.isEmpty || (9.0...11.5).contains(sorted[sorted.count / 2]), "packetsPerSecond: \(rates)")
    }

    /// `packetsPerSecond` of every beacon in every tick after the first (the first covers a part second).
    func rateFields(_ text: String) throws -> [Double] {
        struct Tick: Decodable { struct Beacon: Decodable { var packetsPerSecond: Double }; var beacons: [Beacon] }
        let ticks = try text.split(separator: "\n").map { try JSONDecoder().decode(Tick.self, from: Data($0.utf8)) }
        return ticks.dropFirst().flatMap(\.beacons).map(\.packetsPerSecond)
    }

    @Test("hci0:user takes an adapter that is down; on an adapter that is up it gives the EBUSY advice and exits 1")
    func userChannel() throws {
        let run = try KernelVM.run("scan")
        #expect(run.status("user-down") == 0, "\(run.text("user-down.err"))")
        #expect(Self.summaries(try run.frames("user-down")) == Self.expected)
        #expect(run.status("user-up") == 1)
        let advice = run.lines("user-up.err")
        #expect(advice.count == 1, "\(advice)")
        #expect(advice.first?.contains("hci0 is busy (EBUSY)") == true)
        #expect(advice.first?.contains("sudo hciconfig hci0 down") == true)
    }

    @Test("not root, with only cap_net_raw,cap_net_admin: a down adapter is brought up and scanned; cap_net_raw scans an up one")
    func capabilitiesAreEnough() throws {
        let run = try KernelVM.run("capabilities")
        #expect(run.text("state-before-both").contains("down"))
        #expect(run.status("down-both") == 0, "\(run.text("down-both.err"))")
        #expect(run.text("down-both.err").contains("the adapter was down; beacontop brought it up"))
        #expect(Self.summaries(try run.frames("down-both")) == Self.expected)
        #expect(run.text("state-after-both").contains("up"))
        // CAP_NET_RAW alone lets a raw socket send any command; it cannot power an adapter on.
        #expect(run.status("up-raw") == 0, "\(run.text("up-raw.err"))")
        #expect(Self.summaries(try run.frames("up-raw")) == Self.expected)
    }

    @Test("not root, without CAP_NET_ADMIN, on a down adapter: one line saying how to bring it up, status 1",
          arguments: ["down-none", "down-raw"])
    func downWithoutNetAdmin(step: String) throws {
        let run = try KernelVM.run("capabilities")
        #expect(run.status(step) == 1)
        let lines = run.lines("\(step).err")
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("beacontop: hci0 is down (ENETDOWN) and beacontop may not bring it up") == true, "\(lines)")
        #expect(lines.first?.contains("sudo hciconfig hci0 up") == true)
        #expect(lines.first?.contains("setcap cap_net_raw,cap_net_admin+eip") == true)
    }

    @Test("not root, without capabilities, on an up adapter: the permission advice, status 1",
          arguments: [("up-none", "hci0:raw"), ("up-none-monitor", "hci0:monitor")])
    func noCapabilities(step: String, spec: String) throws {
        let run = try KernelVM.run("capabilities")
        #expect(run.status(step) == 1)
        let lines = run.lines("\(step).err")
        #expect(lines == ["beacontop: no permission to use \(spec) (the HCI socket needs CAP_NET_RAW and CAP_NET_ADMIN): run 'sudo setcap cap_net_raw,cap_net_admin+eip $(which beacontop)' once, or run as root"])
    }

    @Test("a missing adapter, in every mode: one line naming the adapters present, status 1",
          arguments: ["missing-raw", "missing-user", "missing-monitor", "missing-advertise", "missing-tui"])
    func missingAdapter(step: String) throws {
        let run = try KernelVM.run("capabilities")
        #expect(run.status(step) == 1)
        #expect(run.lines("\(step).err") == ["beacontop: no Bluetooth adapter hci1 (ENODEV); adapters present: hci0"])
    }

    @Test("advertise hci0: a Bumble scanner on the link hears the iBeacon's bytes exactly, ten times a second")
    func advertiseIsHeard() throws {
        let run = try KernelVM.run("exit-paths")
        #expect(run.status("advertise-duration") == 0, "\(run.text("advertise-duration.err"))")
        #expect(run.lines("advertise-duration.err").first
                == "beacontop: advertising ibeacon FDA50693-A4E2-4FB1-AFCF-C6EB07647825:7:9 (extended advertising, every 100.0 ms)")
        // Flags, then Apple's manufacturer data: 4C 00, type 02, length 15, UUID, major 7, minor 9, -61 dBm.
        let expected = "020106" + "1aff4c000215" + "fda50693a4e24fb1afcfc6eb07647825" + "0007" + "0009" + "c3"
        struct Heard: Decodable { var address: String; var data: String }
        let heard = try run.lines("scanner.ndjson").map { try JSONDecoder().decode(Heard.self, from: Data($0.utf8)) }
            .filter { $0.data.contains("fda50693a4e24fb1afcfc6eb07647825") }
        #expect(heard.count >= 25, "\(heard.count) reports in 5 s at 100 ms")
        #expect(Set(heard.map(\.data)) == [expected])
        #expect(Set(heard.map(\.address)) == ["B0:00:00:00:00:01"])
        // That it stops with the run: KernelVMTests.ExitPaths (advertise-duration).
    }
}
