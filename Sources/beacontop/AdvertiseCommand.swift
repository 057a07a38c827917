import ArgumentParser
import BeaconFormats
import Foundation
import HCI
import PacketSources
import Sessions

/// `beacontop advertise SOURCE --ibeacon UUID:MAJOR:MINOR` (or `--altbeacon`, `--eddystone-uid`,
/// `--eddystone-url`): makes the controller a beacon until interrupted (docs/commands.md "beacontop advertise").
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise as a beacon through a controller (hci0, serial:, tcp:, unix:).",
        discussion: """
            Advertises until --duration or a signal, then stops advertising. Exit status: 0 at \
            --duration, SIGINT, SIGTERM, SIGHUP or SIGQUIT; 1 the controller cannot be opened or refused \
            to advertise; 64 a usage error (not exactly one beacon flag, a value out of range).
            """
    )

    @Argument(help: "The source spec of the controller to advertise with.") var source: String
    @Option(help: "Advertise an iBeacon: UUID:MAJOR:MINOR.") var ibeacon: String?
    @Option(help: "Advertise an AltBeacon: UUID:ID2:ID3 (the 20-byte id as a UUID and two 16-bit numbers).") var altbeacon: String?
    @Option(help: "AltBeacon manufacturer id, hex or decimal (0x0118 is Radius Networks).") var company: String = "0x0118"
    @Option(help: "Advertise an Eddystone-UID: NAMESPACE:INSTANCE (20 and 12 hex digits).") var eddystoneUid: String?
    @Option(help: "Advertise an Eddystone-URL (http:// or https://, at most 17 bytes once compressed).") var eddystoneUrl: String?
    @Option(parsing: .unconditional, help: "Measured power at 1 m in dBm (a negative number); Eddystone sends it +41 dB as TX power at 0 m.") var measuredPower: Int = -59
    @Option(help: "Advertising interval: 100ms, 1s or plain milliseconds (20 ms to 10.24 s).") var interval: String = "100ms"
    // `.unconditional`, as scan's: `--duration -1` is the option's value, refused by `parsed()`,
    // not a missing value.
    @Option(parsing: .unconditional, help: "Stop after this many seconds.") var duration: Double?

    /// Checks every option before anything opens, so a mistake prints this command's usage.
    func validate() throws {
        _ = try parsed()
    }

    /// The spec, the beacon and the interval the options name, or the first that is wrong.
    func parsed() throws -> (spec: SourceSpec, frame: BeaconFrame, data: [UInt8], interval: LEAdvertisingInterval) {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        guard spec.acceptsCommands else { throw ValidationError(TransportError.commandsNotAccepted(spec: spec.description).description) }
        let (frame, data) = try beacon()
        let advertisingInterval: LEAdvertisingInterval
        do { advertisingInterval = try LEAdvertisingInterval(milliseconds: try Self.parseMilliseconds(interval)) }
        catch let error as DecodeError { throw ValidationError("--interval: \(error.reason)") }
        // NaN passed `duration <= 0` and never elapsed: `--duration nan` advertised until a signal.
        if let duration, !(duration > 0 && duration.isFinite) {
            throw ValidationError("--duration must be a positive number of seconds, got \(duration)")
        }
        return (spec, frame, data, advertisingInterval)
    }

    func run() async throws {
        let (spec, frame, data, advertisingInterval) = try parsed()
        let live = LiveSource(spec: spec)
        let inbox = SourceInbox(capacity: 4_096, wakeThreshold: 1)
        let stop = StopSignal()
        stop.catchTerminationSignals()
        do { try live.start(into: inbox) } catch {
            if case .noBluetoothInKernel = error {
                StandardError.report(TransportError.kernelWithoutBluetooth(useInstead: "a controller over H4 (serial:, tcp:, unix:)"))
            } else {
                StandardError.report("\(error)")
            }
            throw ExitCode(1)
        }
        // Not on the raw channel, where bluetoothd shares the adapter (see `ScanOptions.resetFirst`).
        let resetFirst: Bool
        if case .kernel(_, .raw) = spec { resetFirst = false } else { resetFirst = true }
        let mode: AdvertisingMode
        do {
            mode = try await AdvertisingProcedure.start(on: live, data: data, interval: advertisingInterval, resetFirst: resetFirst)
        } catch {
            StandardError.report("\(error)")
            live.stop()
            throw ExitCode(1)
        }
        live.setCrashStop(AdvertisingProcedure.disable(mode))
        StandardError.report("advertising \(frame.kind.rawValue) \(BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0))) (\(mode.rawValue) advertising, every \(advertisingInterval.milliseconds) ms)")
        if let duration { stop.trigger(after: duration) }
        // A controller that comes back after a loss forgot its advertising.
        live.onReconnect(restarting: "advertising") {
            do {
                _ = try await AdvertisingProcedure.start(on: live, data: data, interval: advertisingInterval, resetFirst: resetFirst)
                return nil
            } catch {
                return "\(error)"
            }
        }
        // Notices go to stderr as they come.
        let consumed = StopSignal()
        let consumer = Thread {
            var notices = HeadlessScan(mode: .noticesOnly, flushEachBatch: true)
            var output = StandardOutput()
            _ = notices.run(inbox: inbox, output: &output)
            stop.trigger(.sourceEnded)
            consumed.trigger(.sourceEnded)
        }
        consumer.name = "beacontop-advertise"
        consumer.start()
        let reason = await stop.wait()
        if reason != .sourceEnded {
            await live.endRestarts()
            do {
                try await AdvertisingProcedure.stop(on: live, mode: mode)
                live.setCrashStop(nil)
            } catch TransportError.closed {
                StandardError.report(TransportError.notConnectedAtExit(live.name, "advertising"))
            } catch {
                StandardError.report("could not stop advertising: \(error)")
            }
        }
        live.stop()
        _ = await consumed.wait()
    }

    /// The one beacon the flags ask for, and its advertising data.
    func beacon() throws -> (BeaconFrame, [UInt8]) {
        let chosen: [(BeaconKind, String)] = [
            (.iBeacon, ibeacon), (.altBeacon, altbeacon), (.eddystoneUID, eddystoneUid), (.eddystoneURL, eddystoneUrl),
        ].compactMap { kind, text in text.map { (kind, $0) } }
        guard chosen.count == 1, let (kind, text) = chosen.first else {
            throw ValidationError("give exactly one of --ibeacon, --altbeacon, --eddystone-uid, --eddystone-url")
        }
        let hex = company.hasPrefix("0x")
        guard let companyID = UInt16(hex ? String(company.dropFirst(2)) : company, radix: hex ? 16 : 10) else {
            throw ValidationError("--company '\(company)' is not a 16-bit id")
        }
        do {
            let beacon = try BeaconSpec.advertisement(kind: kind, text: text, measuredPower: measuredPower, company: companyID)
            return (beacon.frame, beacon.data)
        } catch {
            throw ValidationError("--\(error.field == "measured power" ? "measured-power" : error.field) \(error.reason)")
        }
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
