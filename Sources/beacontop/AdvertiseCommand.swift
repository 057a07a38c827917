import ArgumentParser
import BeaconFormats
import Foundation
import HCI
import Sources

/// `beacontop advertise SOURCE --ibeacon UUID:MAJOR:MINOR` (or `--altbeacon`, `--eddystone-uid`,
/// `--eddystone-url`): makes the controller a beacon until interrupted (README "advertise").
struct AdvertiseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advertise",
        abstract: "Advertise as a beacon through a controller (hci0, serial:, tcp:, unix:)."
    )

    @Argument(help: "The source spec of the controller to advertise with.") var source: String
    @Option(help: "Advertise an iBeacon: UUID:MAJOR:MINOR.") var ibeacon: String?
    @Option(help: "Advertise an AltBeacon: UUID:ID2:ID3 (the 20-byte id as a UUID and two 16-bit numbers).") var altbeacon: String?
    @Option(help: "AltBeacon manufacturer id (default 0x0118, Radius Networks).") var company: String = "0x0118"
    @Option(help: "Advertise an Eddystone-UID: NAMESPACE:INSTANCE (20 and 12 hex digits).") var eddystoneUid: String?
    @Option(help: "Advertise an Eddystone-URL (http:// or https://, at most 17 bytes once compressed).") var eddystoneUrl: String?
    @Option(parsing: .unconditional, help: "Measured power at 1 m in dBm (a negative number); Eddystone sends it +41 dB as TX power at 0 m.") var measuredPower: Int = -59
    @Option(help: "Advertising interval: 100ms, 1s or plain milliseconds (20 ms to 10.24 s).") var interval: String = "100ms"
    @Option(help: "Stop after this many seconds.") var duration: Double?

    func run() async throws {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: source) } catch { throw ValidationError(error.description) }
        guard spec.acceptsCommands else { throw ValidationError(TransportError.commandsNotAccepted(spec: spec.description).description) }
        let (frame, data) = try beacon()
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
            mode = try await AdvertisingProcedure.start(on: live, data: data, interval: advertisingInterval, resetFirst: resetFirst)
        } catch {
            FileHandle.standardError.write(Data("beacontop: \(error)\n".utf8))
            live.stop()
            throw ExitCode(1)
        }
        FileHandle.standardError.write(Data("beacontop: advertising \(frame.kind.rawValue) \(BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0))) (\(mode.rawValue) advertising, every \(advertisingInterval.milliseconds) ms)\n".utf8))
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

    /// The one beacon the flags ask for, and its advertising data.
    func beacon() throws -> (BeaconFrame, [UInt8]) {
        let chosen = [ibeacon, altbeacon, eddystoneUid, eddystoneUrl].compactMap { $0 }
        guard chosen.count == 1 else {
            throw ValidationError("give exactly one of --ibeacon, --altbeacon, --eddystone-uid, --eddystone-url")
        }
        guard let power = Int8(exactly: measuredPower) else { throw ValidationError("--measured-power \(measuredPower) is not -128 to 127") }
        if let ibeacon {
            let frame = try Self.parseIBeacon(ibeacon, measuredPower: measuredPower)
            return (.iBeacon(frame), frame.advertisingData)
        }
        if let altbeacon {
            let parts = altbeacon.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 3, let id1 = UUIDBytes(parts[0]), let id2 = UInt16(parts[1]), let id3 = UInt16(parts[2]) else {
                throw ValidationError("--altbeacon '\(altbeacon)': expected UUID:ID2:ID3 with ID2 and ID3 0-65535")
            }
            let companyText = company.hasPrefix("0x") ? String(company.dropFirst(2)) : company
            guard let companyID = UInt16(companyText, radix: company.hasPrefix("0x") ? 16 : 10) else {
                throw ValidationError("--company '\(company)' is not a 16-bit id")
            }
            let id = id1.bytes + [UInt8(id2 >> 8), UInt8(id2 & 0xFF), UInt8(id3 >> 8), UInt8(id3 & 0xFF)]
            let frame = AltBeaconFrame(company: companyID, beaconID: id, referenceRSSI: power, reserved: 0)
            return (.altBeacon(frame), frame.advertisingData)
        }
        guard let txPower = Int8(exactly: measuredPower + BeaconFrame.eddystone0mTo1mLoss) else {
            throw ValidationError("--measured-power \(measuredPower) + 41 dB is not a TX power of -128 to 127")
        }
        if let eddystoneUid {
            let parts = eddystoneUid.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let namespace = Self.hexBytes(parts[0], count: 10), let instance = Self.hexBytes(parts[1], count: 6) else {
                throw ValidationError("--eddystone-uid '\(eddystoneUid)': expected NAMESPACE:INSTANCE, 20 and 12 hex digits")
            }
            let frame = EddystoneUIDFrame(txPowerAt0m: txPower, namespace: namespace, instance: instance)
            return (.eddystoneUID(frame), frame.advertisingData)
        }
        let frame = EddystoneURLFrame(txPowerAt0m: txPower, url: eddystoneUrl ?? "")
        do { return (.eddystoneURL(frame), try frame.advertisingData()) } catch {
            throw ValidationError("--eddystone-url '\(frame.url)': \(error)")
        }
    }

    static func hexBytes(_ text: Substring, count: Int) -> [UInt8]? {
        guard text.count == count * 2, text.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
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
