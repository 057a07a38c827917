import Foundation
import Glibc
import Testing

extension KernelVMTests {
    /// Each way `scan` and `advertise` end (docs/exit-paths.md), checked from outside by the
    /// monitor-channel listener: the controller ends not scanning and not advertising.
    @Suite("Kernel HCI in a VM: exit paths")
    struct ExitPaths {
        static let runs = ["scan-INT", "scan-TERM", "scan-HUP", "scan-QUIT", "scan-SEGV",
                           "monitor-q", "monitor-HUP", "monitor-QUIT", "scan-PIPE", "scan-duration",
                           "advertise-INT", "advertise-HUP", "advertise-QUIT", "advertise-TERM", "advertise-ILL", "advertise-duration"]

        /// A crash still dies of its signal (the shell's 128 + N), after the controller was told to stop.
        static let crashStatus = ["scan-SEGV": Int32(128 + SIGSEGV), "advertise-ILL": Int32(128 + SIGILL)]

        @Test("the process exits 0 (a crash: dies of its signal) and the controller's last enable of what it did is a disable; nothing flows afterwards",
              arguments: runs)
        func controllerStopped(name: String) throws {
            let run = try KernelVM.run("exit-paths")
            #expect(run.status(name) == Self.crashStatus[name] ?? 0, "\(name): \(run.text("\(name).err"))")
            let start = try run.time("\(name).start")
            let end = try run.time("\(name).end")
            let listened = try run.listener()
            let next = Self.runs.firstIndex(of: name).flatMap { Self.runs.indices.contains($0 + 1) ? Self.runs[$0 + 1] : nil }
            let quietUntil = try next.map { try run.time("\($0).start") } ?? (listened.last?.t ?? end)
            let kind = name.hasPrefix("advertise") ? "advertising" : "scan"
            let enables = listened.filter { $0.index == 0 && $0.kind == kind && $0.t >= start && $0.t <= end }
            #expect(enables.first.map { $0.enable == 1 && $0.status == 0 } == true, "\(name) never enabled \(kind)")
            #expect(enables.last.map { $0.enable == 0 && $0.status == 0 } == true,
                    "\(name) left \(kind) on: \(enables.map { "\($0.enable ?? -1)/\($0.status ?? -1)" })")
            // A second after the process is gone no reports reach hci0: it is not scanning.
            let reports = listened.filter { $0.index == 0 && $0.report == true && $0.t > end + 1 && $0.t < quietUntil }
            #expect(reports.isEmpty, "\(reports.count) advertising reports after \(name) ended")
            // The world's scanner hears hci0 only while it was enabled. Its clock is the host's, the
            // listener's the guest's (set from the RTC, to the second): compare spans. The scanner's
            // reports fall into one burst per advertise run, in order.
            let advertiseRuns = Self.runs.filter { $0.hasPrefix("advertise") }
            let bursts = try Self.bursts(heardFrom: "B0:00:00:00:00:01", in: run)
            #expect(bursts.count == advertiseRuns.count, "\(bursts.count) bursts of hci0's advertising for \(advertiseRuns.count) runs")
            if kind == "advertising", let index = advertiseRuns.firstIndex(of: name), bursts.indices.contains(index),
               let first = enables.first, let last = enables.last {
                #expect(bursts[index] <= last.t - first.t + 0.5, "heard for \(bursts[index]) s, enabled for \(last.t - first.t) s")
            }
        }

        /// How long each burst of an address's reports lasted (a pause of 1.5 s or more ends a burst).
        static func bursts(heardFrom address: String, in run: VMRun) throws -> [Double] {
            struct Heard: Decodable { var t: Double; var address: String }
            let times = try run.lines("scanner.ndjson").map { try JSONDecoder().decode(Heard.self, from: Data($0.utf8)) }
                .filter { $0.address == address }.map(\.t)
            var spans: [Double] = []
            var start = times.first
            for (previous, next) in zip(times, times.dropFirst()) where next - previous >= 1.5 {
                spans.append(previous - start!)
                start = next
            }
            if let start, let last = times.last { spans.append(last - start) }
            return spans
        }

        @Test("the monitor in tmux in the guest, ended by q, SIGHUP and a typed Ctrl-\\, exits 0 and leaves the table's screen",
              arguments: ["monitor-q", "monitor-HUP", "monitor-QUIT"])
        func monitorEnds(name: String) throws {
            let run = try KernelVM.run("exit-paths")
            #expect(run.status(name) == 0)
            let screen = run.text("\(name).screen")
            #expect(screen.contains("EXIT=0") && !screen.contains("PROXIMITY"), "\(screen)")
        }

        @Test("scan | head -3: three lines, then beacontop stops scanning and exits 0 instead of dying of SIGPIPE")
        func closedPipe() throws {
            let run = try KernelVM.run("exit-paths")
            #expect(run.lines("scan-PIPE.out").count == 3)
            #expect(run.status("scan-PIPE") == 0)
            // The source's end, then scan's closing count for a live source (docs/commands.md).
            let errors = run.lines("scan-PIPE.err")
            #expect(errors.count == 2 && errors.first == "beacontop: hci0:raw: stopped", "\(errors)")
            #expect(errors.last?.wholeMatch(of: /beacontop: hci0:raw: \d+ packets, 0 dropped/) != nil, "\(errors)")
        }
    }

    /// The adapter pulled mid-scan (the vhci device closed) and plugged back 3 s later.
    @Suite("Kernel HCI in a VM: a vanishing adapter")
    struct VanishingAdapter {
        @Test("scan: the loss and the reconnect attempts (each reason once) on stderr, then the same beacons again")
        func scanReconnects() throws {
            let run = try KernelVM.run("vanish")
            #expect(run.status("scan") == 0)
            let errors = run.lines("scan.err")
            // (The first line says the adapter was powered up: hci0 starts down without bluetoothd.)
            let lost = errors.firstIndex(of: "beacontop: hci0:raw: lost (adapter removed: read gave EPIPE)")
            // The first attempt says how the transport was lost (later ones, why the last attempt failed).
            let retry = errors.firstIndex { $0.hasPrefix("beacontop: hci0:raw: adapter removed: read gave EPIPE; reconnecting in") }
            let connected = errors.firstIndex(of: "beacontop: hci0:raw: connected")
            #expect(lost != nil && retry != nil && connected != nil, "\(errors)")
            #expect(lost.map { l in retry.map { l < $0 } ?? false } == true && retry.map { r in connected.map { r < $0 } ?? false } == true,
                    "\(errors)")
            let gone = try run.time("gone")
            let back = try run.time("back")
            let frames = try run.frames("scan")
            #expect(Self.summaries(frames.filter { $0.t < gone }) == KernelVMTests.expected)
            #expect(Self.summaries(frames.filter { $0.t > back }) == KernelVMTests.expected, "the same beacons after the return")
            #expect(!frames.contains { $0.t > gone + 0.5 && $0.t < back }, "frames while the adapter was gone")
        }

        static func summaries(_ frames: [FrameLine]) -> Set<String> { KernelVMTests.summaries(frames) }

        @Test("monitor: the loss shows on the status line, the rows update after the return, q restores the terminal")
        func monitorReconnects() throws {
            let run = try KernelVM.run("vanish")
            let before = run.text("screen-before")
            #expect(before.contains(" 4 beacons") && before.contains("hci0:raw scanning"), "\(before)")
            let lost = run.text("screen-lost")
            #expect(lost.contains("hci0:raw reconnecting") || lost.contains("hci0:raw lost"), "\(lost)")
            let after = run.text("screen-after")
            #expect(after.contains("hci0:raw scanning"), "\(after)")
            for row in ["E2C56DB5…:100:1", "2F234454…:1:2", "edd1eb…:0badc0ffee01", "https://example.com"] {
                let line = after.split(separator: "\n").first { $0.contains(row) }
                // Heard again within the last second: the AGE column (the last) reads under 1 s.
                let age = line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0.dropLast()) }
                #expect(age.map { $0 < 1 } == true, "\(row): \(line ?? "no row")")
            }
            #expect(run.text("screen-exit").contains("EXIT=0"))
        }
    }
}
