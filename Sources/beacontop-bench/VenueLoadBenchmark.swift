import BeaconFormats
import Foundation
import HCI
import MQTT
import Ranging
import Synchronization
import TestFixtures
import Venue

/// `beacontop-bench venue [--seconds S] [--scanners N] [--beacons M] [--rate HZ]`: N simulated
/// scanners each publishing M beacons at HZ (default 20 x 100 at 10 Hz: 20,000 readings a second,
/// beacontop's own reading message) through one loopback mosquitto, into one venue view running
/// the presence rule in a process of its own (`venue-subscriber`). Reports what was lost, the
/// view's CPU share (its process, both its threads) and the end-to-end latency from publishing a
/// reading to presence having taken it in. The broker is a real mosquitto started here
/// (`LocalMosquittoBroker`, the tests' fixture), so nothing else on the machine is touched.
enum VenueLoadBenchmark {
    static func run(_ arguments: [String]) throws {
        if arguments == ["--logic"] { return logicAlone(scanners: 20, beacons: 100) }
        var seconds = 20.0, scanners = 20, beacons = 100, rate = 10.0
        var arguments = arguments
        let product = arguments.first == "--product"
        if product { arguments.removeFirst() }
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--seconds": seconds = Double(value) ?? seconds
            case "--scanners": scanners = Int(value) ?? scanners
            case "--beacons": beacons = Int(value) ?? beacons
            case "--rate": rate = Double(value) ?? rate
            default: throw VenuePresenceBenchmark.Usage(description: "unknown argument '\(arguments[index])'")
            }
            index += 2
        }
        if product { return try VenueProductBenchmark.run(seconds: seconds, scanners: scanners, beacons: beacons, rate: rate) }
        logicAlone(scanners: scanners, beacons: beacons)
        let broker = try LocalMosquittoBroker()
        let url = broker.url()
        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        subscriber.arguments = ["venue-subscriber", url, String(seconds + 15)]
        let output = Pipe()
        subscriber.standardOutput = output
        try subscriber.run()
        let lines = output.fileHandleForReading
        guard readLine(lines) == "ready" else { throw VenuePresenceBenchmark.Usage(description: "the subscriber did not start") }

        let brokerStart = cpuSeconds(of: broker.processID)
        let (sent, refused, publishWall) = try publish(url: url, seconds: seconds, scanners: scanners, beacons: beacons, rate: rate)
        let brokerCPU = cpuSeconds(of: broker.processID) - brokerStart
        subscriber.waitUntilExit()
        let result = lines.readDataToEndOfFile()
        print("venue: \(scanners) scanners x \(beacons) beacons at \(rate) Hz for \(format(publishWall)) s through mosquitto on 127.0.0.1")
        print("  published: \(sent) (\(format(Double(sent) / publishWall))/s), refused by the client: \(refused)")
        print("  broker CPU: \(format(100 * brokerCPU / publishWall))% of one core")
        print(String(decoding: result, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            .replacingOccurrences(of: "SENT", with: String(sent)))
    }

    /// N scanners' agents, through 4 client connections, publishing M beacons' readings at HZ
    /// (paced in 10 ms slots); returns what was sent, refused and the wall seconds it took.
    static func publish(url: String, seconds: Double, scanners: Int, beacons: Int, rate: Double) throws -> (sent: Int, refused: Int, wall: Double) {
        let publishers = try (0..<4).map { number in
            try MQTTClient(options: MQTTClientOptions(endpoint: try MQTTEndpoint(parsing: url), clientID: "bench-agents-\(number)-\(getpid())"))
        }
        for client in publishers { client.start() }
        for client in publishers { if let failure = client.waitForFirstConnection(timeout: 10) { throw failure } }
        let template = SyntheticReading()
        let topics = VenueTopics()
        let scannerNames = (0..<scanners).map { "scanner-\($0 + 1)" }
        var sent = 0, refused = 0
        let slot = 0.01
        let perSlot = Double(scanners * beacons) * rate * slot
        var due = 0.0
        let start = now()
        var next = start
        while next - start < seconds {
            due += perSlot
            while due >= 1 {
                let message = sent + refused
                let scanner = message % scanners
                let beacon = (message / scanners) % beacons
                // Each beacon is loudest at "its" scanner (beacon % scanners), weaker elsewhere.
                let rssi = scanner == beacon % scanners ? -60 : -75 - (message % 7)
                let payload = template.payload(scanner: scannerNames[scanner], beacon: beacon, rssi: rssi, time: Date().timeIntervalSince1970)
                let outcome = publishers[scanner % publishers.count].publish(MQTTOutgoingMessage(topic: topics.readings(scanner: scannerNames[scanner]), payload: payload))
                if outcome == .sent { sent += 1 } else { refused += 1 }
                due -= 1
            }
            next += slot
            let wait = next - now()
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        }
        let wall = now() - start
        for client in publishers { client.stop(drainTimeout: 5) }
        return (sent, refused, wall)
    }

    /// The view: subscribes, says "ready", then decodes and ingests every reading until the
    /// stream has been quiet for 3 s (or `limit` seconds pass); prints what it measured.
    static func subscriber(_ arguments: [String]) throws {
        guard arguments.count == 2, let limit = Double(arguments[1]) else { throw VenuePresenceBenchmark.Usage(description: "venue-subscriber URL SECONDS") }
        let client = try MQTTClient(options: MQTTClientOptions(endpoint: try MQTTEndpoint(parsing: arguments[0]), clientID: "bench-view-\(getpid())"))
        client.subscribe("beacontop/scanners/+/readings")
        client.start()
        if let failure = client.waitForFirstConnection(timeout: 10) { throw failure }
        usleep(200_000) // the SUBACK: subscribing is asynchronous
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        let state = SubscriberState()
        let done = DispatchSemaphore(value: 0)
        Task {
            var decoder = VenueMessageDecoder()
            var presence = RoomPresence()
            var latencies: [Double] = []
            latencies.reserveCapacity(1 << 20)
            var received = 0, changes = 0, first = 0.0
            for await event in client.events {
                guard case .message(let message) = event else { continue }
                if received == 0 { first = now() }
                received += 1
                if let input = decoder.decode(topic: message.topic, payload: message.payload, receivedAt: message.receivedAt) {
                    changes += presence.ingest(input).count
                    if case .reading(let reading) = input, let sent = reading.sentAt {
                        latencies.append(Date().timeIntervalSince1970 - sent)
                    }
                }
                if received % 1000 == 0 { changes += presence.tick(at: message.receivedAt).count }
                state.lastMessage.store(now(), ordering: .relaxed)
                state.received.store(received, ordering: .relaxed)
            }
            let last = state.lastMessage.load(ordering: .relaxed)
            let summary = (received, latencies, changes, decoder.refusedTotal, first, last)
            state.results.withLock { $0 = summary }
            done.signal()
        }
        // Done when the network thread has received nothing new for 3 s and the consumer has
        // taken in everything it received.
        let started = now()
        var lastCount = 0
        var lastChange = now()
        while now() - started < limit {
            usleep(100_000)
            let arrived = client.statistics.received
            if arrived != lastCount {
                lastCount = arrived
                lastChange = now()
            }
            if arrived > 0, now() - lastChange > 3, state.received.load(ordering: .relaxed) >= arrived - client.statistics.receivedDropped { break }
        }
        client.stop()
        done.wait()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        let r = state.results.withLock { $0 }
        let sorted = r.latencies.sorted()
        func percentile(_ p: Double) -> String {
            sorted.isEmpty ? "-" : format(1000 * sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))])
        }
        let wall = max(r.last - r.first, 1e-9)
        print("  view received: \(r.received) of SENT (inbox overflow: \(client.statistics.receivedDropped)), refused as malformed: \(r.refused), presence changes: \(r.changes)")
        print("  view CPU: \(format(cpu)) s over \(format(wall)) s of traffic = \(format(100 * cpu / wall))% of one core (its whole process)")
        print("  latency publish -> presence updated: p50 \(percentile(0.5)) ms, p95 \(percentile(0.95)) ms, p99 \(percentile(0.99)) ms, max \(percentile(1)) ms")
    }

    final class SubscriberState: Sendable {
        let lastMessage = Atomic<Double>(VenueLoadBenchmark.now())
        let received = Atomic<Int>(0)
        let results = Mutex<(received: Int, latencies: [Double], changes: Int, refused: Int, first: Double, last: Double)>((0, [], 0, 0, 0, 0))
    }

    /// The view's own work without the network: decode and ingest 200,000 reading messages,
    /// measured in this thread's CPU time (best of 3), so the figure does not depend on how loaded
    /// the machine is.
    static func logicAlone(scanners: Int, beacons: Int) {
        let template = SyntheticReading()
        let topics = VenueTopics()
        let count = 200_000
        let messages = (0..<2000).map { message in
            let scanner = message % scanners
            let beacon = (message / scanners) % beacons
            return (topics.readings(scanner: "scanner-\(scanner + 1)"),
                    template.payload(scanner: "scanner-\(scanner + 1)", beacon: beacon, rssi: scanner == beacon % scanners ? -60 : -75, time: 0))
        }
        var best = Double.infinity
        for _ in 0..<3 {
            var decoder = VenueMessageDecoder()
            var presence = RoomPresence()
            let start = MonitorLoadBenchmark.threadCPUSeconds()
            for index in 0..<count {
                let (topic, payload) = messages[index % messages.count]
                if let input = decoder.decode(topic: topic, payload: payload, receivedAt: Double(index) / 20_000) {
                    _ = presence.ingest(input)
                }
            }
            best = min(best, MonitorLoadBenchmark.threadCPUSeconds() - start)
        }
        var decodeOnly = Double.infinity
        for _ in 0..<3 {
            var decoder = VenueMessageDecoder()
            let start = MonitorLoadBenchmark.threadCPUSeconds()
            for index in 0..<count {
                let (topic, payload) = messages[index % messages.count]
                _ = decoder.decode(topic: topic, payload: payload, receivedAt: Double(index) / 20_000)
            }
            decodeOnly = min(decodeOnly, MonitorLoadBenchmark.threadCPUSeconds() - start)
        }
        print("  of which decoding: \(format(1e6 * decodeOnly / Double(count))) µs per reading")
        print("view logic alone (decode + presence, no network): \(format(1e6 * best / Double(count))) µs per reading = \(format(100 * best / Double(count) * 20_000))% of one core at 20,000 readings/s")
    }

    static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let chunk = handle.readData(ofLength: 1)
            guard let byte = chunk.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// utime + stime of a process, from /proc/PID/stat (clock ticks of 1/100 s).
    static func cpuSeconds(of pid: pid_t?) -> Double {
        guard let pid, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}

/// One agent's reading message: a real `ScannerReadingMessage` (the full beacon object, ~560
/// bytes), built per message on the publishing side.
struct SyntheticReading {
    let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!

    func payload(scanner: String, beacon: Int, rssi: Int, time: Double) -> [UInt8] {
        let reading = BeaconReading(
            identity: .iBeacon(uuid: uuid, major: 1, minor: UInt16(beacon)), address: BDAddress(rawValue: 0xC0_00_00_00_00_00 + UInt64(beacon)),
            rssi: rssi, filteredRSSI: Double(rssi), accuracy: 2, accuracyRange: 1.5...2.6, proximity: .near,
            measuredPower: ResolvedMeasuredPower(dBm: -59, source: .frame, frameValue: -59), pathLossExponent: 2, packets: 1,
            totalPackets: 100, packetsPerSecond: 10, advertisingInterval: 0.1, firstSeen: time - 60, lastSeen: time, isStale: false, exhibit: nil
        )
        return ScannerReadingMessage.json(scanner: scanner, time: time, reading: reading)
    }
}
