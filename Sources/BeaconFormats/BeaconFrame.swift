import HCI

/// An iBeacon frame: Apple manufacturer data 0x004C, type 0x02, length 0x15.
public struct IBeaconFrame: Sendable, Hashable {
    public var uuid: UUIDBytes
    public var major: UInt16
    public var minor: UInt16
    /// Calibrated RSSI at 1 m in dBm, as the beacon claims it (signed; some real beacons send +3 or +12).
    public var measuredPower: Int8

    @inlinable
    public init(uuid: UUIDBytes, major: UInt16, minor: UInt16, measuredPower: Int8) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
        self.measuredPower = measuredPower
    }
}

/// An AltBeacon frame: manufacturer data of any company with beacon code 0xBEAC.
public struct AltBeaconFrame: Sendable, Hashable {
    public var company: UInt16
    /// The 20-byte beacon id, conventionally a 16-byte UUID followed by two 16-bit values.
    public var beaconID: [UInt8]
    /// Reference RSSI at 1 m in dBm.
    public var referenceRSSI: Int8
    public var reserved: UInt8

    public init(company: UInt16, beaconID: [UInt8], referenceRSSI: Int8, reserved: UInt8) {
        self.company = company
        self.beaconID = beaconID
        self.referenceRSSI = referenceRSSI
        self.reserved = reserved
    }
}

/// Eddystone-UID: a 10-byte namespace and a 6-byte instance; TX power is calibrated at 0 m.
public struct EddystoneUIDFrame: Sendable, Hashable {
    public var txPowerAt0m: Int8
    public var namespace: [UInt8]
    public var instance: [UInt8]

    public init(txPowerAt0m: Int8, namespace: [UInt8], instance: [UInt8]) {
        self.txPowerAt0m = txPowerAt0m
        self.namespace = namespace
        self.instance = instance
    }
}

/// Eddystone-URL: a compressed URL; TX power is calibrated at 0 m. The URL comes from the air
/// and may hold anything: sanitise it before drawing it on a terminal.
public struct EddystoneURLFrame: Sendable, Hashable {
    public var txPowerAt0m: Int8
    public var url: String

    public init(txPowerAt0m: Int8, url: String) {
        self.txPowerAt0m = txPowerAt0m
        self.url = url
    }
}

/// Eddystone-TLM: telemetry, plain (version 0) or encrypted (version 1, eTLM). It names no beacon:
/// it belongs to whichever frame the same address sends.
public struct EddystoneTLMFrame: Sendable, Hashable {
    public enum Payload: Sendable, Hashable {
        /// Battery in mV, temperature in °C (8.8 fixed point; nil for 0x8000), PDU count, and
        /// time since boot in 0.1 s units, as the spec defines them.
        case plain(batteryMillivolts: UInt16, temperatureCelsius: Double?, advertisingCount: UInt32, uptimeTenths: UInt32)
        case encrypted(data: [UInt8], salt: UInt16, integrityCheck: UInt16)
    }

    public var version: UInt8
    public var payload: Payload

    public init(version: UInt8, payload: Payload) {
        self.version = version
        self.payload = payload
    }
}

/// Eddystone-EID: an 8-byte rotating ephemeral id; TX power is calibrated at 0 m.
public struct EddystoneEIDFrame: Sendable, Hashable {
    public var txPowerAt0m: Int8
    public var ephemeralID: [UInt8]

    public init(txPowerAt0m: Int8, ephemeralID: [UInt8]) {
        self.txPowerAt0m = txPowerAt0m
        self.ephemeralID = ephemeralID
    }
}

/// One decoded beacon frame of any supported kind.
public enum BeaconFrame: Sendable, Hashable {
    case iBeacon(IBeaconFrame)
    case altBeacon(AltBeaconFrame)
    case eddystoneUID(EddystoneUIDFrame)
    case eddystoneURL(EddystoneURLFrame)
    case eddystoneTLM(EddystoneTLMFrame)
    case eddystoneEID(EddystoneEIDFrame)

    public var kind: BeaconKind {
        switch self {
        case .iBeacon: .iBeacon
        case .altBeacon: .altBeacon
        case .eddystoneUID: .eddystoneUID
        case .eddystoneURL: .eddystoneURL
        case .eddystoneTLM: .eddystoneTLM
        case .eddystoneEID: .eddystoneEID
        }
    }

    /// Eddystone calibrates TX power at 0 m; received power at 1 m is about 41 dB lower
    /// (free-space loss at 2.4 GHz over 1 m, as the Eddystone protocol specification states).
    public static let eddystone0mTo1mLoss = 41

    /// Expected RSSI at 1 m in dBm, the reference of every distance model; nil for TLM frames.
    public var measuredPower: Int? {
        switch self {
        case .iBeacon(let frame): Int(frame.measuredPower)
        case .altBeacon(let frame): Int(frame.referenceRSSI)
        case .eddystoneUID(let frame): Int(frame.txPowerAt0m) - Self.eddystone0mTo1mLoss
        case .eddystoneURL(let frame): Int(frame.txPowerAt0m) - Self.eddystone0mTo1mLoss
        case .eddystoneEID(let frame): Int(frame.txPowerAt0m) - Self.eddystone0mTo1mLoss
        case .eddystoneTLM: nil
        }
    }
}
