import Foundation
import Synchronization
import HCI
import Testing
import TestFixtures
@testable import PacketSources

/// The packet path through a real H4 transport (a unix socket), fed with a real capture.
@Suite("Live H4 source", .serialized)
struct LiveSourceTests {
    /// The H4 records of a btsnoop (datalink 1002) file, parsed minimally.
    static func records(_ name: String) throws -> [[UInt8]] {
        let data = try [UInt8](Data(contentsOf: SharedData.capture(name)))
        func u32(_ at: Int) -> Int { Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3]) }
        var records: [[UInt8]] = []
        var offset = 16
        while offset + 24 <= data.count {
            let included = u32(offset + 4)
            guard offset + 24 + included <= data.count else { break }
            if included == u32(offset) && included > 0 { records.append(Array(data[(offset + 24)..<(offset + 24 + included)])) }
            offset += 24 + included
        }
        return records
    }

    static func attempt(of event: SourceEvent) -> Int? {
        if case .notice(.reconnecting(_, let attempt, _, _)) = event { attempt } else { nil }
    }

    @Test("a real capture written as H4 in random chunks arrives packet for packet, timestamped")
    func packetPath() async throws {
        let records = try Self.records("horizon74.btsnoop")
        let server = try H4SocketServer()
        let before = Date().timeIntervalSince1970
        let source = LiveSource(spec: .unix(path: server.path))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        var random = SystemRandomNumberGenerator()
        let stream = records.flatMap { $0 }
        var index = 0
        while index < stream.count {
            let end = min(stream.count, index + Int.random(in: 1...700, using: &random))
            server.write(stream[index..<end])
            index = end
        }
        let expected = records.count
        let events = await inbox.collect(from: source) { events in events.count(where: { if case .packet = $0 { true } else { false } }) >= expected }
        source.stop()
        let packets = events.compactMap { event -> HCIPacket? in if case .packet(let packet) = event { packet } else { nil } }
        #expect(events.first == .notice(.connected(source: "unix:\(server.path)")))
        #expect(packets.map(\.h4Bytes) == records)
        #expect(packets.allSatisfy { $0.timestamp >= before && $0.timestamp <= Date().timeIntervalSince1970 })
    }

    @Test("a lost transport is an event, and the source reconnects with back-off")
    func lostAndReconnected() async throws {
        let server = try H4SocketServer()
        let spec = SourceSpec.unix(path: server.path)
        let source = LiveSource(spec: spec, backoff: ReconnectBackoff(initial: 0.05, maximum: 0.2))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        server.write([0x04, 0x0E, 0x04, 0x01, 0x00, 0x00, 0x00])
        server.dropClient()
        let events = await inbox.collect(from: source) { events in events.filter { if case .notice(.connected) = $0 { true } else { false } }.count >= 2 }
        #expect(events.count >= 4)
        #expect(events.contains(.notice(.lost(source: spec.description, reason: "the other end closed the connection"))))
        // The first attempt says how the transport was lost.
        #expect(events.contains(.notice(.reconnecting(source: spec.description, attempt: 1, delay: 0.05, reason: "the other end closed the connection"))))
        #expect(events.last == .notice(.connected(source: spec.description)))

        // Now nothing listens: attempts keep coming, further apart, capped at the maximum.
        server.accept()
        server.shutdown()
        let retries = await inbox.collect(from: source) { events in events.contains { Self.attempt(of: $0) == 3 } }
        // Later attempts say why the previous one failed: nothing listens at the socket any more.
        let second = retries.first { Self.attempt(of: $0) == 2 }
        guard case .notice(.reconnecting(_, _, let delay, let reason)) = second else {
            Issue.record("no second attempt in \(retries)")
            return
        }
        #expect(delay == 0.1)
        #expect(reason.contains(server.path) && reason != "the other end closed the connection", "\(reason)")
        source.stop()
    }

    @Test("a controller away is tried again every second, so a re-plugged one is back within a second")
    func reconnectAttemptsAreASecondApart() async throws {
        let server = try H4SocketServer()
        let source = LiveSource(spec: .unix(path: server.path))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        server.shutdown()
        let events = await inbox.collect(from: source, seconds: 20) { events in events.contains { Self.attempt(of: $0) == 4 } }
        source.stop()
        let delays = events.compactMap { event -> Double? in
            if case .notice(.reconnecting(_, _, let delay, _)) = event { delay } else { nil }
        }
        // Before: 0.5, 1, 2, 4, then 8 and 10 s, so a controller back 8 s after the loss was opened at 15.5 s.
        #expect(delays.prefix(4) == [0.5, 1, 1, 1], "\(events.notices)")
    }

    @Test("a command goes out as H4 and its Command Complete comes back to the caller")
    func commandRoundTrip() async throws {
        let server = try H4SocketServer()
        let source = LiveSource(spec: .unix(path: server.path), commandTimeout: 5)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        // The controller's side blocks on the socket, so it runs on a thread of its own, not on
        // the two cooperative threads other suites' waits may hold (see VenueMonitorTerminalTests).
        let command = Mutex<[UInt8]>([])
        let replied = DispatchSemaphore(value: 0)
        // Handed over: the test does not touch the server again until the thread has signalled.
        nonisolated(unsafe) let controllerEnd = server
        let controller = Thread {
            let read = controllerEnd.read(4)
            command.withLock { $0 = read }
            controllerEnd.write([0x04, 0x0E, 0x04, 0x01] + read[1...2] + [0x0C])
            replied.signal()
        }
        controller.start()
        let response = try await source.execute(.reset)
        // The reply is written after the command is kept, so this wait is over at once.
        replied.wait()
        #expect(command.withLock { $0 } == [0x01, 0x03, 0x0C, 0x00])
        #expect(response == HCICommandResponse(kind: .complete, opcode: HCIOpcode.reset, allowedCommandPackets: 1, status: .commandDisallowed))
        source.stop()
    }

    @Test("a connection lost while a command waits says so, with the loss's reason")
    func lossWhileACommandWaits() async throws {
        let server = try H4SocketServer()
        let spec = SourceSpec.unix(path: server.path)
        let source = LiveSource(spec: spec, commandTimeout: 5)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        // Something that takes the command and hangs up, as a TCP port that is no controller does.
        nonisolated(unsafe) let controllerEnd = server
        let hungUp = DispatchSemaphore(value: 0)
        let controller = Thread {
            _ = controllerEnd.read(4)
            controllerEnd.dropClient()
            hungUp.signal()
        }
        controller.start()
        // It said `unix:PATH was closed`.
        await #expect(throws: TransportError.lostBeforeAnswer(spec: spec.description, reason: "the other end closed the connection")) {
            _ = try await source.execute(.reset)
        }
        hungUp.wait()
        source.stop()
    }

    @Test("a controller that never answers gives a timeout naming the command")
    func commandTimeout() async throws {
        let server = try H4SocketServer()
        let source = LiveSource(spec: .unix(path: server.path), commandTimeout: 0.2)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        await #expect(throws: TransportError.commandTimedOut(command: "LE Set Scan Enable", seconds: 0.2)) {
            _ = try await source.execute(.leSetScanEnable(false, filterDuplicates: false))
        }
        source.stop()
    }

    /// A wrong baud rate or a noisy line: bytes arrive, none frames as H4. The timeout said only
    /// that the controller did not answer; it says the bytes came and what to check.
    @Test("a timeout after bytes that were no H4 says so, with a hint at the baud rate")
    func commandTimeoutAfterNoise() async throws {
        let server = try H4SocketServer()
        let source = LiveSource(spec: .unix(path: server.path), commandTimeout: 0.5)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        // 0xFF and 0x00 are no H4 packet indicator: every byte is skipped; the vendor event after
        // them ends the run, so its framing notice says the bytes were read.
        server.write([UInt8](repeating: 0xFF, count: 20) + [UInt8](repeating: 0x00, count: 12) + [0x04, 0xFF, 0x00])
        _ = await inbox.collect(from: source) { events in
            events.contains { if case .notice(.framingError) = $0 { true } else { false } }
        }
        await #expect(throws: TransportError.commandTimedOut(command: "Reset", seconds: 0.5, unframedBytes: 32)) {
            _ = try await source.execute(.reset)
        }
        #expect(TransportError.commandTimedOut(command: "Reset", seconds: 0.5, unframedBytes: 32).description
            == "the controller did not answer Reset within 0.5 s; 32 bytes arrived that framed no H4 packet: check the baud rate (serial:PATH@BAUD) and that the other end speaks H4")
        source.stop()
    }

    @Test("an answered command's timeout, run out, leaves the next command with the same opcode waiting for its answer")
    func answeredCommandsTimeoutSparesTheNext() async throws {
        let server = try H4SocketServer()
        // The timeouts are run by hand, so the order below is the test's, not the clock's.
        let timeouts = Mutex<[@Sendable () -> Void]>([])
        let source = LiveSource(spec: .unix(path: server.path), commandTimer: { _, action in timeouts.withLock { $0.append(action) } })
        let inbox = SourceInbox()
        try source.start(into: inbox)
        defer { source.stop() }
        server.accept()
        // The controller answers the first Reset at once, and the second once told to.
        let read = Mutex(0)
        let answerSecond = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let controllerEnd = server
        let controller = Thread {
            for index in 0..<2 {
                let command = controllerEnd.read(4)
                guard command.count == 4 else { return }
                read.withLock { $0 += 1 }
                if index == 1 { answerSecond.wait() }
                controllerEnd.write([0x04, 0x0E, 0x04, 0x01] + command[1...2] + [0x00])
            }
        }
        controller.start()
        _ = try await source.execute(.reset)
        let second = Task { try await source.execute(.reset) }
        let deadline = ContinuousClock.now + .seconds(20)
        while read.withLock({ $0 }) < 2 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(read.withLock { $0 } == 2, "the second Reset never reached the controller")
        // The first Reset's 3 s run out while the second waits (scan --duration 3: the enable's
        // timer and the disable). Before: the second failed here as timed out.
        let first = try #require(timeouts.withLock { $0.first })
        first()
        answerSecond.signal()
        let response = try await second.value
        #expect(response.status == .success)
    }

    @Test("garbage between packets is reported with its offset and the stream recovers")
    func framingError() async throws {
        let server = try H4SocketServer()
        let source = LiveSource(spec: .unix(path: server.path))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        server.accept()
        server.write([0x04, 0x0E, 0x01, 0x01, 0xFF, 0xFE, 0x04, 0x0E, 0x01, 0x02])
        let events = await inbox.collect(from: source) { $0.count >= 4 }
        source.stop()
        #expect(events.dropFirst().first.map { if case .packet = $0 { true } else { false } } == true)
        #expect(events.contains(.notice(.framingError(source: "unix:\(server.path)", detail: "skipped 2 byte(s) at stream offset 4: 0xFF is not an H4 packet indicator"))))
        #expect(events.last.map { if case .packet(let p) = $0 { p.payload == [0x0E, 0x01, 0x02] } else { false } } == true)
    }
}

@Suite("Kernel monitor channel packets")
struct MonitorPacketDecoderTests {
    @Test("opcodes map to packet type and direction; short headers throw")
    func decode() throws {
        let event: [UInt8] = [0x03, 0x00, 0x00, 0x00, 0x03, 0x00, 0x0E, 0x01, 0x01]
        let packet = try #require(try MonitorPacketDecoder.decode(event[...], at: 5))
        #expect(packet == HCIPacket(timestamp: 5, direction: .controllerToHost, type: .event, payload: [0x0E, 0x01, 0x01]))
        let command: [UInt8] = [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x03, 0x0C, 0x00]
        #expect(try MonitorPacketDecoder.decode(command[...], at: 0)?.direction == .hostToController)
        let newIndex: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        #expect(try MonitorPacketDecoder.decode(newIndex[...], at: 0) == nil)
        #expect(throws: DecodeError(field: "monitor length", offset: 4, reason: "says 3 bytes, 1 present")) {
            try MonitorPacketDecoder.decode([0x03, 0, 0, 0, 3, 0, 0x0E][...], at: 0)
        }
    }

    @Test("back-off doubles up to its maximum")
    func backoff() {
        let backoff = ReconnectBackoff(initial: 0.5, maximum: 10)
        #expect((1...7).map(backoff.delay(attempt:)) == [0.5, 1, 2, 4, 8, 10, 10])
    }
}
