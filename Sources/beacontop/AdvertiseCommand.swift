import ArgumentParser
import BeaconFormats
import Foundation
import HCI
import Sources

/// `beacontop advertise SOURCE --ibeacon UUID:MAJOR:MINOR`: makes the controller a beacon
/// until interrupted (README "advertise").
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise as a beacon through a controller (hci0, serial:, tcp:, unix:)."
    )

    @Argument(help: "The source spec of the controller to advertise with.") var source: String
    @Option(help: "Advertise an iBeacon: UUID:MAJOR:MINOR.") var ibeacon: String
    @Option(parsing: .unconditional, help: "Measured power at 1 m in dBm (a negative number).") var measuredPower: Int = -59
    @Option(help: "Advertising interval: 100ms, 1s or plain milliseconds (20 ms to 10.24 s).") var interval: String = "100ms"
    @Option(help: "Stop after this many seconds.") var duration: Double?

    func run() async throws {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        guard spec.acceptsCommands else { throw ValidationError(TransportError.commandsNotAccepted(spec: spec.description).description) }
        let frame = try Self.parseIBeacon(ibeacon, measuredPower: measuredPower)
        let advertisingInterval: LEAdvertisingInterval
        do { advertisingInterval = try LEAdvertisingInterval(milliseconds: try Self.parseMilliseconds(interval)) }
        catch let error as DecodeError { throw ValidationError("--interval: \(error.reason)") }

        let live = LiveSource(spec: spec)
        let stop = StopSignal()
        stop.catchTerminationSignals()
        do { try live.start() } catch {
            FileHandle.standardError.write(Data("beacontop: \(error)\n".utf8))
            throw ExitCode(1)
        }
        var resetFirst = true
        if case .kernel(_, .raw) = spec { resetFirst = false }
        let mode: AdvertisingMode
        do {
            mode = try await AdvertisingProcedure.start(on: live, data: frame.advertisingData, interval: advertisingInterval, resetFirst: resetFirst)
        } catch {
            FileHandle.standardError.write(Data("beacontop: \(error)\n".utf8))
            live.stop()
            throw ExitCode(1)
        }
        FileHandle.standardError.write(Data("beacontop: advertising iBeacon \(BeaconIdentity(frame: .iBeacon(frame), address: BDAddress(rawValue: 0))) (\(mode.rawValue) advertising, every \(advertisingInterval.milliseconds) ms)\n".utf8))
        if let duration { stop.trigger(after: duration) }
        let drain = Task { for await _ in live.events {} ; stop.trigger(.sourceEnded) }
        let reason = await stop.wait()
        if reason != .sourceEnded {
            do { try await AdvertisingProcedure.stop(on: live, mode: mode) } catch {
                FileHandle.standardError.write(Data("beacontop: could not stop advertising: \(error)\n".utf8))
            }
        }
        live.stop()
        drain.cancel()
    }

    static func parseIBeacon(_ text: String, measuredPower: Int) throws -> IBeaconFrame {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw ValidationError("--ibeacon '\(text)': expected UUID:MAJOR:MINOR") }
        guard let uuid = UUIDBytes(parts[0]) else { throw ValidationError("--ibeacon '\(text)': UUID '\(parts[0])' is not 32 hex digits") }
        guard let major = UInt16(parts[1]) else { throw ValidationError("--ibeacon '\(text)': major '\(parts[1])' is not 0-65535") }
        guard let minor = UInt16(parts[2]) else { throw ValidationError("--ibeacon '\(text)': minor '\(parts[2])' is not 0-65535") }
        guard let power = Int8(exactly: measuredPower) else { throw ValidationError("--measured-power \(measuredPower) is not -128 to 127") }
        return IBeaconFrame(uuid: uuid, major: major, minor: minor, measuredPower: power)
    }

    /// `100ms`, `1.5s` or `100` (milliseconds).
    static func parseMilliseconds(_ text: String) throws -> Double {
        let value: Double?
        if text.hasSuffix("ms") { value = Double(text.dropLast(2)) }
        else if text.hasSuffix("s") { value = Double(text.dropLast()).map { $0 * 1000 } }
        else { value = Double(text) }
        guard let value else { throw ValidationError("--interval '\(text)': write 100ms, 1s or a number of milliseconds") }
        return value
    }
}
