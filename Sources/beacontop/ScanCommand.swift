import ArgumentParser
import BeaconFormats
import Foundation
import HCI
import Sources

/// `beacontop scan SOURCE`: headless scanning, one line per beacon frame (README "scan").
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a source (hci0, serial:, tcp:, unix:) headless and print each beacon frame."
    )

    @Argument(help: "The source spec: hci0[:raw|user|monitor], serial:PATH[@BAUD][,rtscts], tcp:HOST:PORT, unix:PATH.")
    var source: String

    @Flag(help: "Print NDJSON, one object per beacon frame.") var json = false
    @Option(help: "Stop after this many seconds.") var duration: Double?
    @Flag(help: "Active scanning (send scan requests; receives scan responses).") var active = false
    @Option(help: "Scan interval in milliseconds (2.5 to 10240).") var interval: Double = 100
    @Option(help: "Scan window in milliseconds (2.5 to the interval).") var window: Double?

    func run() async throws {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        let timing: LEScanTiming
        do { timing = try LEScanTiming(intervalMilliseconds: interval, windowMilliseconds: window ?? interval) }
        catch { throw ValidationError("\(error.field): \(error.reason)") }
        if let duration, duration <= 0 { throw ValidationError("--duration must be positive") }

        let live = LiveSource(spec: spec)
        let stop = StopSignal()
        stop.catchTerminationSignals()
        do { try live.start() } catch {
            FileHandle.standardError.write(Data("beacontop: \(error)\n".utf8))
            throw ExitCode(1)
        }

        var resetFirst = true
        if case .kernel(_, .raw) = spec { resetFirst = false }
        let options = ScanOptions(type: active ? .active : .passive, timing: timing, resetFirst: resetFirst)
        var startedMode: ScanMode?
        if spec.acceptsCommands {
            do {
                startedMode = try await ScanProcedure.start(on: live, options: options)
            } catch {
                FileHandle.standardError.write(Data("beacontop: \(error)\n".utf8))
                live.stop()
                throw ExitCode(1)
            }
        }
        let mode = startedMode
        if let duration { stop.trigger(after: duration) }

        let printer = FrameLinePrinter(json: json)
        let consumer = Task {
            var pipeline = BeaconFramePipeline()
            var lost = false
            for await event in live.events {
                switch event {
                case .packet(let packet):
                    for frame in pipeline.frames(in: packet) { printer.print(frame) }
                    printer.flush()
                case .status(let status):
                    FileHandle.standardError.write(Data("beacontop: \(status)\n".utf8))
                    if case .lost = status { lost = true }
                    if case .connected = status, lost, mode != nil {
                        // A controller that came back after a loss forgot its scan state.
                        lost = false
                        do { _ = try await ScanProcedure.start(on: live, options: options) } catch {
                            FileHandle.standardError.write(Data("beacontop: scanning not restarted: \(error)\n".utf8))
                        }
                    }
                }
            }
            stop.trigger(.sourceEnded)
        }
        _ = await stop.wait()
        if let mode {
            do { try await ScanProcedure.stop(on: live, mode: mode) } catch {
                FileHandle.standardError.write(Data("beacontop: could not disable scanning: \(error)\n".utf8))
            }
        }
        live.stop()
        consumer.cancel()
        printer.flush()
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
