import Foundation
import Synchronization
import TestFixtures

/// `beacontop-bench venue --product [--seconds S] [--scanners N] [--beacons M] [--rate HZ]`: the
/// same load as `venue` (20 agents x 100 beacons at 10 Hz: 20,000 readings a second through one
/// loopback mosquitto) into the real product, `beacontop scan mqtt://BROKER --json` (the release
/// build beside this one), a process of its own: the broker source, the inbox, the venue view
/// and the NDJSON writer, nothing of the bench's.
///
/// - loss: readings published minus the messages the view says it took in (its closing line), and
///   the inbox's drops it reports;
/// - CPU share: the view process's user + system time (/proc) from the traffic's start until it
///   has caught up (its line for the second after the traffic), over the seconds of traffic;
/// - latency, publish -> presence updated: the view writes the line for second `t` when the first
///   reading received after `t` has gone through presence; that reading was published at about
///   `t`. Each line's arrival here minus its `t` is the whole path (publish, broker, the view's
///   network thread, inbox, decoding, presence, NDJSON, pipe), plus at most one publishing slot
///   (10 ms) of waiting for the first reading after `t`.
enum VenueProductBenchmark {
    static func run(seconds: Double, scanners: Int, beacons: Int, rate: Double) throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("beacontop").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw VenuePresenceBenchmark.Usage(description: "\(executable) is missing: swift build -c release --product beacontop")
        }
        let broker = try LocalMosquittoBroker()
        let view = Process()
        view.executableURL = URL(fileURLWithPath: executable)
        view.arguments = ["scan", broker.url(), "--json", "--duration", String(seconds + 6)]
        let output = Pipe()
        let errors = Pipe()
        view.standardOutput = output
        view.standardError = errors
        try view.run()
        // Every line as it arrives: (wall time read, its "t").
        let arrivals = Mutex<[(wall: Double, t: Double)]>([])
        let reader = Thread {
            let handle = output.fileHandleForReading
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let wall = Date().timeIntervalSince1970
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<newline]
                    pending.removeSubrange(pending.startIndex...newline)
                    // `{"t":1795413843.0,` : the number after the first colon.
                    if let text = String(data: line.prefix(40), encoding: .utf8), let colon = text.firstIndex(of: ":"),
                       let comma = text.firstIndex(of: ","), let t = Double(text[text.index(after: colon)..<comma]) {
                        arrivals.withLock { $0.append((wall, t)) }
                    }
                }
            }
        }
        reader.start()
        // The view's idle lines start once it is subscribed: the first one says it is up.
        let deadline = Date().addingTimeInterval(15)
        while arrivals.withLock({ $0.isEmpty }) && Date() < deadline { usleep(20_000) }
        let brokerStart = VenueLoadBenchmark.cpuSeconds(of: broker.processID)
        let viewStart = VenueLoadBenchmark.cpuSeconds(of: view.processIdentifier)
        let trafficStart = Date().timeIntervalSince1970
        let (sent, refused, wall) = try VenueLoadBenchmark.publish(url: broker.url(), seconds: seconds, scanners: scanners, beacons: beacons, rate: rate)
        let trafficEnd = trafficStart + wall
        let brokerCPU = VenueLoadBenchmark.cpuSeconds(of: broker.processID) - brokerStart
        // Caught up: a line for a second after the traffic ended has come out.
        while !arrivals.withLock({ $0.contains { $0.t > trafficEnd + 1 } }) && view.isRunning { usleep(20_000) }
        let viewCPU = VenueLoadBenchmark.cpuSeconds(of: view.processIdentifier) - viewStart
        let caughtUp = Date().timeIntervalSince1970 - trafficStart
        view.waitUntilExit()
        let closing = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let numbers = closing.split(separator: "\n").first { $0.contains(" messages, ") }.map { line in
            line.split(separator: " ").compactMap { Int($0) }
        } ?? []
        let received = numbers.first ?? -1
        let dropped = numbers.count > 1 ? numbers[1] : -1
        // Lines for seconds inside the traffic (not the idle ones before or after it).
        let latencies = arrivals.withLock { $0 }.filter { $0.t > trafficStart + 1 && $0.t < trafficEnd && $0.t == $0.t.rounded() }
            .map { $0.wall - $0.t }.sorted()
        func percentile(_ p: Double) -> String {
            latencies.isEmpty ? "-" : VenueLoadBenchmark.format(1000 * latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))])
        }
        let f = VenueLoadBenchmark.format
        print("venue --product: beacontop scan mqtt:// --json, \(scanners) scanners x \(beacons) beacons at \(rate) Hz for \(f(wall)) s")
        print("  published: \(sent) (\(f(Double(sent) / wall))/s), refused by the publishing clients: \(refused)")
        print("  view took in: \(received) messages (lost: \(sent - received)), inbox drops: \(dropped)")
        print("  view CPU: \(f(viewCPU)) s (its whole process) from the traffic's start until it caught up \(f(caughtUp)) s later = \(f(100 * viewCPU / wall))% of one core per second of traffic")
        print("  broker CPU: \(f(100 * brokerCPU / wall))% of one core")
        print("  latency publish -> presence updated -> line out: p50 \(percentile(0.5)) ms, p95 \(percentile(0.95)) ms, max \(percentile(1)) ms over \(latencies.count) lines")
        if !closing.isEmpty { print("  view's stderr: " + closing.split(separator: "\n").joined(separator: " | ")) }
    }
}
