import ArgumentParser
import BeaconFormats
import Captures
import Foundation
import HCI
import NDJSON
import Ranging
import PacketSources

/// `beacontop scan SOURCE`: headless scanning: NDJSON ranging ticks with `--json` (the same lines as
/// `replay --json`, README "NDJSON tick lines"), or one line per beacon frame (`--frames`, or text).
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a source (hci0, serial:, tcp:, unix:, or a capture file) headless: NDJSON ranging ticks, or each beacon frame."
    )

    @Argument(help: "The source spec: hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, unix:PATH, or a capture file.")
    var source: String

    @Flag(help: "Print NDJSON: one ranging tick per second of capture time (with --frames: one object per beacon frame).") var json = false
    @Flag(help: "One line per beacon frame instead of ranging ticks.") var frames = false
    @OptionGroup var ranging: RangingOptions
    @Option(help: "Stop after this many seconds.") var duration: Double?
    @Flag(help: "Active scanning (send scan requests; receives scan responses).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?
    @Option(help: "Also write every packet to this btsnoop file (Wireshark reads it; replay it as a source).") var record: String?
    @Option(help: "Replay speed: 0.25 to 100, or max (the default for a headless replay).") var speed: String = "max"
    @Flag(help: "Replay: start over at the end.") var loop = false
    @Option(help: "Replay: start this many seconds after the capture's first packet.") var from: Double?
    @Option(help: "Replay: stop this many seconds after the capture's first packet.") var to: Double?

    /// Checks every option before anything opens, so a mistake prints this command's usage.
    func validate() throws {
        _ = try parsed()
    }

    /// The spec, scan timing and replay speed the options name, or the first that is wrong.
    func parsed() throws -> (spec: SourceSpec, timing: LEScanTiming, speed: ReplaySpeed) {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        let timing: LEScanTiming
        do { timing = try LEScanTiming(intervalMilliseconds: interval, windowMilliseconds: window ?? interval) }
        catch { throw ValidationError("\(error.field): \(error.reason)") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        let replaySpeed: ReplaySpeed
        do { replaySpeed = try ReplaySpeed(parsing: speed) } catch { throw ValidationError(error.description) }
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }
        return (spec, timing, replaySpeed)
    }

    func run() async throws {
        let (spec, timing, replaySpeed) = try parsed()

        let opening: SourceOpening
        do {
            opening = try SourceOpening(spec: spec, replay: ReplayOptions(speed: replaySpeed, loop: loop, from: from, to: to), record: record)
        } catch {
            Self.report("\(error)")
            throw ExitCode(1)
        }
        let packets = opening.packets
        let live = opening.controller
        let stop = StopSignal()
        stop.catchTerminationSignals()
        do { try packets.start() } catch {
            Self.report("\(error)")
            throw ExitCode(1)
        }

        var resetFirst = true
        if case .kernel(_, .raw) = spec { resetFirst = false }
        let options = ScanOptions(type: active ? .active : .passive, timing: timing, resetFirst: resetFirst)
        var startedMode: ScanMode?
        if let live {
            do {
                startedMode = try await ScanProcedure.start(on: live, options: options)
            } catch {
                Self.report("\(error)")
                packets.stop()
                throw ExitCode(1)
            }
        }
        let mode = startedMode
        if let duration { stop.trigger(after: duration) }

        let json = json
        let ticks = json && !frames
        let pipeline = ticks ? try ranging.makePipeline() : nil
        let flushEachPacket = spec.isLive
        let source = packets
        let consumer = Task {
            var printer = FrameLinePrinter(json: json)
            var ticker = pipeline
            var tickWriter = JSONWriter(capacity: 1 << 16)
            let writeTick: (RangingSnapshot) -> Void = { snapshot in
                TickLineEncoder.appendLine(snapshot, to: &tickWriter)
                if tickWriter.bytes.count >= 1 << 16 || flushEachPacket {
                    FileHandle.standardOutput.write(Data(tickWriter.bytes))
                    tickWriter.removeAll()
                }
            }
            var decoder = BeaconSightingDecoder()
            var malformed = 0
            var lastMalformation: DecodeError?
            var tickMalformed = 0
            var firstTickError: DecodeError?
            var lost = false
            for await event in source.events {
                switch event {
                case .packet(let packet) where ticker != nil:
                    ticker!.advance(to: packet.timestamp, onTick: writeTick)
                    do throws(DecodeError) {
                        try decoder.decode(packet) { ticker!.record($0) }
                    } catch {
                        tickMalformed += 1
                        if firstTickError == nil { firstTickError = error }
                    }
                case .packet(let packet):
                    do throws(DecodeError) {
                        try decoder.decode(packet) { printer.print($0) }
                    } catch {
                        malformed += 1
                        lastMalformation = error
                    }
                    if flushEachPacket { printer.flush() }
                case .notice(let status):
                    if case .connected = status, !lost { continue }
                    printer.flush()
                    Self.report("\(status)")
                    if case .lost = status { lost = true }
                    if case .connected = status, lost, let live, mode != nil {
                        // A controller that came back after a loss forgot its scan state.
                        lost = false
                        do { _ = try await ScanProcedure.start(on: live, options: options) } catch {
                            Self.report("scanning not restarted: \(error)")
                        }
                    }
                }
            }
            printer.flush()
            if ticker != nil {
                ticker!.finish(onTick: writeTick)
                FileHandle.standardOutput.write(Data(tickWriter.bytes))
                if let first = firstTickError {
                    Self.report("\(tickMalformed) malformed packets skipped (first: \(first))")
                }
            }
            if let lastMalformation {
                Self.report("\(malformed) malformed packets skipped (last: \(lastMalformation))")
            }
            stop.trigger(.sourceEnded)
        }
        let reason = await stop.wait()
        if let mode, let live, reason != .sourceEnded {
            do { try await ScanProcedure.stop(on: live, mode: mode) } catch {
                Self.report("could not disable scanning: \(error)")
            }
        }
        // Stopping ends the source's stream (a live source within one poll interval), so the
        // consumer prints and records everything up to the last packet before it returns.
        packets.stop()
        await consumer.value
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("beacontop: \(message)\n".utf8))
    }
}

/// Prints beacon frames as NDJSON, the same frame line as `decode --frames --json`
/// (`BeaconFrameLine`: `{"t","address","addressType","event","rssi","kind","id","measuredPower"}`),
/// or as aligned text. Lines collect in a buffer written to stdout in large writes: a
/// max-speed replay prints a million lines a few seconds.
struct FrameLinePrinter {
    var json: Bool
    private var line = JSONWriter(capacity: 1 << 10)
    private var buffer: [UInt8] = []

    init(json: Bool) {
        self.json = json
        buffer.reserveCapacity(1 << 16)
    }

    mutating func print(_ sighting: BeaconSighting) {
        if json {
            line.removeAll()
            BeaconFrameLine.append(sighting, to: &line)
            buffer.append(contentsOf: line.bytes)
        } else {
            buffer.append(contentsOf: Self.textLine(sighting).utf8)
        }
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        FileHandle.standardOutput.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    static func textLine(_ sighting: BeaconSighting) -> String {
        let rssi = sighting.rssi.map { String($0) } ?? "-"
        let kind = sighting.frame.kind.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
        return "\(String(format: "%.3f", sighting.timestamp)) \(sighting.address) \(rssi.padding(toLength: 4, withPad: " ", startingAt: 0)) \(kind) \(sighting.identity)\n"
    }
}
