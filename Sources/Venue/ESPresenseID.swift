import BeaconFormats

/// Beacon ids as ESPresense's firmware writes them (`lib/BleFingerprint/BleFingerprint.cpp`,
/// `setId`), so a beacontop scanner and an ESP32 node name the same beacon the same way and Home
/// Assistant's `mqtt_room` or ESPresense Companion see one device:
///
/// - iBeacon: `iBeacon:<uuid>-<major>-<minor>`, the UUID lower-case with dashes, decimals
/// - AltBeacon: `altBeacon:<id1>-<id2>-<id3>`, the same shape
/// - Eddystone-UID: `eddy:<namespace>-<instance>` in lower-case hex. The firmware's format string
///   prints namespace byte 5 twice (11 bytes, 22 digits); beacontop writes the same so both
///   scanners' messages land on one device, and reads both the firmware's 22 digits and a correct 20.
///
/// Eddystone-URL, -TLM and -EID have no id of their own in ESPresense (it names those devices by
/// address), so they are not published on its topic; beacontop's own topic carries them.
/// Reading an id, in these forms or others, is `VenueBeaconKey`'s.
public enum ESPresenseID {
    public static func string(for identity: BeaconIdentity) -> String? {
        switch identity {
        case .iBeacon(let uuid, let major, let minor):
            "iBeacon:\(uuid.description.lowercased())-\(major)-\(minor)"
        case .altBeacon(let id1, let id2, let id3):
            "altBeacon:\(id1.description.lowercased())-\(id2)-\(id3)"
        case .eddystoneUID(let namespace, let instance):
            namespace.count == 10 && instance.count == 6
                ? "eddy:\(hex(Array(namespace[0...4]) + Array(namespace[4...9])))-\(hex(instance))"
                : nil
        case .eddystoneURL, .eddystoneTLM, .eddystoneEID:
            nil
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var utf8: [UInt8] = []
        for byte in bytes {
            utf8.append(digits[Int(byte >> 4)])
            utf8.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
