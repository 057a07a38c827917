import BeaconFormats
import HCI

/// A beacon described in text, as `advertise` flags and advertisement scripts write it:
/// `ibeacon UUID:MAJOR:MINOR`, `altbeacon UUID:ID2:ID3`, `eddystone-uid NAMESPACE:INSTANCE`,
/// `eddystone-url URL`, with a measured power at 1 m (Eddystone sends it + 41 dB as TX power at 0 m).
public enum BeaconSpec {
    /// The frame and the advertising data a beacon of that description sends.
    public static func advertisement(
        kind: BeaconKind, text: String, measuredPower: Int, company: UInt16 = 0x0118
    ) throws(BeaconSpecError) -> (frame: BeaconFrame, data: [UInt8]) {
        guard let power = Int8(exactly: measuredPower) else {
            throw BeaconSpecError(field: BeaconSpecError.measuredPowerField, reason: "\(measuredPower) is not -128 to 127")
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch kind {
        case .iBeacon:
            guard parts.count == 3 else { throw BeaconSpecError(field: "ibeacon", reason: "'\(text)': expected UUID:MAJOR:MINOR") }
            let constraint: BeaconIdentityConstraint
            do { constraint = try BeaconIdentityConstraint(parsing: text) } catch {
                let reason = switch error {
                case .parts: "expected UUID:MAJOR:MINOR"
                case .uuid(let part): "UUID '\(part)' is not 32 hex digits"
                case .major(let part): "major '\(part)' is not 0-65535"
                case .minor(let part): "minor '\(part)' is not 0-65535"
                }
                throw BeaconSpecError(field: "ibeacon", reason: "'\(text)': \(reason)")
            }
            guard let (major, minor) = constraint.majorMinor else {
                throw BeaconSpecError(field: "ibeacon", reason: "'\(text)': expected UUID:MAJOR:MINOR")
            }
            let frame = IBeaconFrame(uuid: constraint.uuid, major: major, minor: minor, measuredPower: power)
            return (.iBeacon(frame), frame.advertisingData)
        case .altBeacon:
            guard let constraint = try? BeaconIdentityConstraint(parsing: text), let (id2, id3) = constraint.majorMinor else {
                throw BeaconSpecError(field: "altbeacon", reason: "'\(text)': expected UUID:ID2:ID3 with ID2 and ID3 0-65535")
            }
            let id = constraint.uuid.bytes + [UInt8(id2 >> 8), UInt8(id2 & 0xFF), UInt8(id3 >> 8), UInt8(id3 & 0xFF)]
            let frame = AltBeaconFrame(company: company, beaconID: id, referenceRSSI: power, reserved: 0)
            return (.altBeacon(frame), frame.advertisingData)
        case .eddystoneUID, .eddystoneURL:
            guard let txPower = Int8(exactly: measuredPower + BeaconFrame.eddystone0mTo1mLoss) else {
                throw BeaconSpecError(field: BeaconSpecError.measuredPowerField, reason: "\(measuredPower) + 41 dB is not a TX power of -128 to 127")
            }
            if kind == .eddystoneUID {
                guard parts.count == 2, let namespace = hexBytes(parts[0], count: 10), let instance = hexBytes(parts[1], count: 6) else {
                    throw BeaconSpecError(field: "eddystone-uid", reason: "'\(text)': expected NAMESPACE:INSTANCE, 20 and 12 hex digits")
                }
                let frame = EddystoneUIDFrame(txPowerAt0m: txPower, namespace: namespace, instance: instance)
                return (.eddystoneUID(frame), frame.advertisingData)
            }
            let frame = EddystoneURLFrame(txPowerAt0m: txPower, url: text)
            do { return (.eddystoneURL(frame), try frame.advertisingData()) } catch {
                throw BeaconSpecError(field: "eddystone-url", reason: "'\(text)': \(error)")
            }
        default:
            throw BeaconSpecError(field: "kind", reason: "\(kind.rawValue) cannot be described this way")
        }
    }

    /// Exactly `count` bytes from `2 * count` hex digits.
    public static func hexBytes(_ text: Substring, count: Int) -> [UInt8]? {
        guard text.count == count * 2, let bytes = hexBytes(text) else { return nil }
        return bytes
    }

    /// Any even number of hex digits.
    public static func hexBytes(_ text: Substring) -> [UInt8]? { UUIDBytes.hexBytes(text) }
}

public struct BeaconSpecError: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var reason: String
    public var description: String { "\(field): \(reason)" }

    /// The field of an out-of-range measured power.
    public static let measuredPowerField = "measured power"

}
