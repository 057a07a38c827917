import BeaconFormats
import Foundation
import Glibc
import HCI
import NDJSON
import PacketSources
import Ranging
import Sessions
import TestFixtures
import Testing

/// `scan`'s consumer: what it writes for packets, sightings decoded elsewhere and notices.
@Suite struct HeadlessScanTests {
    /// Runs a scan over `inbox` with standard output going to a temporary file; returns what it wrote.
    static func run(_ mode: HeadlessScan.Mode, inbox: SourceInbox) throws -> (text: String, summary: HeadlessScan.Summary) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scan-\(UUID().uuidString)").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(descriptor >= 0)
        defer { unlink(path) }
        var output = StandardOutput(descriptor: descriptor)
        var scan = HeadlessScan(mode: mode, flushEachBatch: false)
        let summary = scan.run(inbox: inbox, output: &output)
        close(descriptor)
        return (try String(contentsOfFile: path, encoding: .utf8), summary)
    }

    /// `scan FILE --json` and `replay FILE --json` print the same tick lines: two loops (a source
    /// through the inbox, and the background decoder) over one sighting decoder and one pipeline.
    @Test func ticksFromTheInboxAreTheReplaysTicks() throws {
        let path = SharedData.capture("govee-h5105.pcapng").path
        let inbox = SourceInbox(capacity: 256)
        let opening = try SourceOpening(spec: .file(path: path), replay: ReplayOptions(speed: .max))
        try opening.source.start(into: inbox)
        let scanned = try Self.run(.ticks(BeaconPipeline(engine: RangingEngine())), inbox: inbox)

        var pipeline = BeaconPipeline(engine: RangingEngine())
        var writer = JSONWriter()
        let outcome = CaptureReplay.run(path: path, pipeline: &pipeline) { TickLineEncoder.appendLine($0, to: &writer) }
        #expect(outcome.exitStatus == 0)
        #expect(!scanned.text.isEmpty)
        #expect(scanned.text == writer.text)
        #expect(scanned.summary.packets == 1520)
        #expect(scanned.summary.droppedPackets == 0)
    }

    /// A sighting a remote scanner decoded takes the frame-line path of a packet's sighting.
    @Test func aRemoteSightingIsPrintedLikeADecodedOne() throws {
        let frame = BeaconFrame.iBeacon(IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2, measuredPower: -59))
        let sighting = BeaconSighting(timestamp: 1_700_000_000.5, address: BDAddress(rawValue: 0xA1), addressType: .publicDevice,
                                      eventKind: .advNonconnInd, rssi: -64, frame: frame)
        let packet = AdvertisingReportEncoder.legacyReportPacket([Advertisement(
            timestamp: sighting.timestamp, address: sighting.address, addressType: .publicDevice, eventKind: .advNonconnInd,
            rssi: -64, data: IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2, measuredPower: -59).advertisingData[...]
        )], at: sighting.timestamp)
        let inbox = SourceInbox()
        inbox.deliver([.sighting(sighting, scanner: "room-1"), .packet(packet)], .waitForRoom)
        inbox.finish()
        let (text, summary) = try Self.run(.frames(json: true), inbox: inbox)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0] == lines[1])
        #expect(summary.packets == 1)
    }

    /// A radio faster than the output: what the inbox dropped is in the summary `scan` prints.
    @Test func packetsDroppedAtTheInboxAreCounted() throws {
        let inbox = SourceInbox(capacity: 10)
        let packets = (0..<25).map { index -> SourceEvent in
            .packet(HCIPacket(timestamp: Double(index), direction: .controllerToHost, type: .event, payload: [0x0E, 0x01, 0x00][...]))
        }
        inbox.deliver(packets, .dropWhenFull)
        inbox.finish()
        let (_, summary) = try Self.run(.frames(json: true), inbox: inbox)
        #expect(summary.packets == 10)
        #expect(summary.droppedPackets == 15)
    }
    /// `scan hci0 | head -3`: once the reader is gone the output says so once, the caller is told
    /// (so it stops the source and disables scanning), and the scan reads on to the source's end
    /// without writing.
    @Test func aClosedOutputIsReportedOnceAndTheScanReadsToTheEnd() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        // The write then fails with EPIPE instead of killing the test process: SIGPIPE is blocked on
        // this thread while the scan runs, and the one it raised is taken before unblocking.
        var sigpipe = sigset_t()
        sigemptyset(&sigpipe)
        sigaddset(&sigpipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &sigpipe, &previous)
        defer {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&sigpipe, nil, &now) == SIGPIPE {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }

        let frame = IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: 2, measuredPower: -59)
        let packet = AdvertisingReportEncoder.legacyReportPacket([Advertisement(
            timestamp: 1_700_000_000, address: BDAddress(rawValue: 0xA1), addressType: .publicDevice, eventKind: .advNonconnInd,
            rssi: -64, data: frame.advertisingData[...]
        )], at: 1_700_000_000)
        let inbox = SourceInbox()
        for _ in 0..<3 { inbox.deliver([.packet(packet), .packet(packet)], .waitForRoom) }
        inbox.finish()
        var output = StandardOutput(descriptor: fds[1])
        var scan = HeadlessScan(mode: .frames(json: true), flushEachBatch: true)
        var closings = 0
        let summary = scan.run(inbox: inbox, output: &output, onOutputClosed: { closings += 1 })
        #expect(output.closed)
        #expect(closings == 1)
        #expect(summary.packets == 6)
    }
}
