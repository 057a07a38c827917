import ArgumentParser
import BeaconFormats
import Captures
import Foundation
import HCI
import Sources

/// `beacontop scan SOURCE`: headless scanning, one line per beacon frame (README "scan").
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a source (hci0, serial:, tcp:, unix:, or a capture file) headless and print each beacon frame."
    )

    @Argument(help: "The source spec: hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, unix:PATH, or a capture file.")
    var source: String

    @Flag(help: "Print NDJSON, one object per beacon frame.") var json = false
    @Option(help: "Stop after this many seconds.") var duration: Double?
    @Flag(help: "Active scanning (send scan requests; receives scan responses).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?
    @Option(help: "Also write every packet to this btsnoop file (Wireshark reads it; replay it as a source).") var record: String?
    @Option(help: "Replay speed: 0.25 to 100, or max (the default for a headless replay).") var speed: String = "max"
    @Flag(help: "Replay: start over at the end.") var loop = false
    @Option(help: "Replay: start this many seconds after the capture's first packet.") var from: Double?
    @Option(help: "Replay: stop this many seconds after the capture's first packet.") var to: Double?

    func run() async throws {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        let timing: LEScanTiming
        do { timing = try LEScanTiming(intervalMilliseconds: interval, windowMilliseconds: window ?? interval) }
        catch { throw ValidationError("\(error.field): \(error.reason)") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }
        let replaySpeed: ReplaySpeed
        do { replaySpeed = try ReplaySpeed(parsing: speed) } catch { throw ValidationError(error.description) }
        if let from, let to, to <= from { throw ValidationError("--to must be after --from") }

        var live: LiveSource?
        let base: any PacketSource
        if case .file(let path) = spec {
            let script = AdvertisementScriptReader.looksLikeScript(path: path)
            base = ReplaySource(name: path, options: ReplayOptions(speed: replaySpeed, loop: loop, from: from, to: to)) {
                script ? try AdvertisementScriptReader(path: path) as any ReplayPacketReader : try CaptureReplayReader(path: path)
            }
        } else {
            let source = LiveSource(spec: spec)
            live = source
            base = source
        }
        var packets: any PacketSource = base
        if let record {
            do { packets = RecordingSource(base, recorder: try BTSnoopWriter(path: record), path: record) } catch {
                Self.report("\(error)")
                throw ExitCode(1)
            }
        }
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
        if let live, spec.acceptsCommands {
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

        let printer = FrameLinePrinter(json: json)
        let flushEachPacket = spec.isLive
        let source = packets
        let consumer = Task {
            var pipeline = BeaconFramePipeline()
            var lost = false
            for await event in source.events {
                switch event {
                case .packet(let packet):
                    for frame in pipeline.frames(in: packet) { printer.print(frame) }
                    if flushEachPacket { printer.flush() }
                case .status(let status):
                    if case .connected = status, !lost { continue }
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
            if pipeline.malformedPackets > 0 {
                Self.report("\(pipeline.malformedPackets) malformed packets skipped (last: \(pipeline.lastMalformation.map(String.init(describing:)) ?? ""))")
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
        printer.flush()
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("beacontop: \(message)\n".utf8))
    }
}

/// Prints beacon frames as NDJSON (`{"t","address","rssi","kind","id","measuredPower"}`) or
/// as aligned text. Output is flushed by the caller after each packet so a pipe sees lines as
/// they arrive.
struct FrameLinePrinter: Sendable {
    var json: Bool

    func print(_ frame: ObservedBeaconFrame) {
        Swift.print(json ? Self.jsonLine(frame) : Self.textLine(frame))
    }

    func flush() { fflush(nil) }

    static func jsonLine(_ frame: ObservedBeaconFrame) -> String {
        let rssi = frame.rssi.map { String($0) } ?? "null"
        let power = frame.frame.measuredPower.map { String($0) } ?? "null"
        return "{\"t\":\(String(format: "%.6f", frame.timestamp)),\"address\":\"\(frame.address)\",\"rssi\":\(rssi),"
            + "\"kind\":\"\(frame.identity.kind.rawValue)\",\"id\":\(jsonString(frame.identity.description)),\"measuredPower\":\(power)}"
    }

    static func textLine(_ frame: ObservedBeaconFrame) -> String {
        let rssi = frame.rssi.map { String($0) } ?? "-"
        let kind = frame.identity.kind.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
        return "\(String(format: "%.3f", frame.timestamp)) \(frame.address) \(rssi.padding(toLength: 4, withPad: " ", startingAt: 0)) \(kind) \(frame.identity)"
    }

    /// A JSON string literal; ids can be Eddystone URLs, which come from the air and may hold anything.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
