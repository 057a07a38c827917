import Foundation
import HCI
import Testing
import TestFixtures
@testable import BeaconFormats

/// Every decode vector of `shared/data/vectors.json` against its `expected` fields.
///
/// What is checked for a vector: `computed_by_helper` overlaid with `expected` (the source test's
/// own assertion wins), then overlaid with our decision where we decide differently or where the
/// source asserts only a library policy. `raw_format` "mfg_data" vectors are decoded from `ad_hex`.
@Suite struct DecodeVectorTests {
    /// Our decisions on the vectors whose `note` flags a trap or whose source asserts a policy
    /// rather than a decode (also in docs/beacon-formats.md). `noBeacon` overrides the expected kind.
    static let decisions: [String: (why: String, noBeacon: Bool)] = [
        "abl_altbeacon_len_0x1a": ("Lenient like the Android Beacon Library: AD length 0x1A lacks the reserved byte; "
            + "decoded with reserved 0, and the byte after the structure is not read.", false),
        "beacontools_eddystone_tlm": ("The 14-byte TLM body fills the structure; the trailing 0xE4 is the report's RSSI byte "
            + "the source fixture kept, an overrunning 'structure' after the TLM that stops the walk, not the frame.", false),
        "beacontools_eddystone_tlm_temp71": ("As beacontools_eddystone_tlm.", false),
        "beacontools_eddystone_etlm": ("Strict: the structure (length 0x11) ends after the 12 encrypted bytes; the salt and MIC "
            + "beacontools reports lie outside it, so there is no whole eTLM frame and no beacon.", true),
        "abl_eddystone_tlm_v1": ("The service data structure claims 21 bytes and 16 follow: it overruns, so no beacon.", false),
        "ibeacon_ble_tilt": ("A Tilt hydrometer is a well-formed iBeacon; ignoring it is a library policy, not decoding.", false),
        "ibeacon_ble_zero_power": ("Decoded with measured power 0; ranging, not decoding, says its distance is unknown.", false),
        "abl_eddystone_url_google": ("ABL's null comes from its test layout; the frame is a valid Eddystone-URL.", false),
    ]

    /// Expected keys that are not about the frame (distances, RSSI of the capture, other libraries'
    /// types, sensor readings packed into iBeacon fields): deliberately not checked here.
    static let notDecodeFields: Set<String> = [
        "rssi", "rssi_passed", "ibeacon_ble_distance_m", "ibeacon_ble_distance_m_at_rssi_minus70", "ibeacon_ble_transient",
        "ibeacon_ble_result", "abl_layout_result", "reencode_equal", "strict_parse", "parsed", "beacontools_type",
        "identifier", "cypress_temperature_x100_int", "cypress_humidity_x100_int", "local_name", "tx_power_level_ad",
    ]

    struct Vector {
        var id: String
        var ad: [UInt8]
        var fields: [String: Any]
    }

    static func vectors() throws -> [Vector] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: SharedData.vectorsFile)) as? [String: Any]
        let list = try #require(json?["vectors"] as? [[String: Any]])
        return try list.map { entry in
            let id = try #require(entry["id"] as? String)
            let hex = try #require(entry["ad_hex"] as? String)
            var fields = entry["computed_by_helper"] as? [String: Any] ?? [:]
            fields.merge(entry["expected"] as? [String: Any] ?? [:]) { _, expected in expected }
            if decisions[id]?.noBeacon == true { fields["kind"] = NSNull() }
            return Vector(id: id, ad: SharedData.bytes(hex: hex), fields: fields)
        }
    }

    @Test func everyVectorDecodesToItsExpectedFields() throws {
        let vectors = try Self.vectors()
        #expect(vectors.count == 29)
        #expect(Set(Self.decisions.keys).isSubset(of: Set(vectors.map(\.id))))
        var checkedFields = 0
        for vector in vectors {
            let frame = BeaconDecoder.decode(vector.ad[...])
            guard let kind = vector.fields["kind"] else {
                Issue.record("\(vector.id): no kind expected and no decision recorded")
                continue
            }
            guard let kindName = kind as? String else {
                #expect(frame == nil, "\(vector.id) must decode to no beacon, got \(String(describing: frame))")
                continue
            }
            let expectedKind = kindName.hasPrefix("altbeacon") ? "altbeacon" : kindName == "eddystone"
                ? "eddystone-\(vector.fields["frame"] as? String ?? "?")" : kindName
            guard let frame else {
                Issue.record("\(vector.id): expected \(expectedKind), decoded no beacon")
                continue
            }
            #expect(frame.kind.rawValue == expectedKind, "\(vector.id)")
            for (key, value) in vector.fields where !["kind", "frame"].contains(key) && !Self.notDecodeFields.contains(key) {
                checkedFields += 1
                #expect(Self.check(key, value, in: frame), "\(vector.id): \(key) expected \(value), decoded \(frame)")
            }
        }
        #expect(checkedFields >= 60)
    }

    /// Whether `frame` has `value` for the vector field `key`; an unknown key fails.
    static func check(_ key: String, _ value: Any, in frame: BeaconFrame) -> Bool {
        let int = value as? Int
        switch (key, frame) {
        case ("uuid", .iBeacon(let f)): return f.uuid.description.lowercased() == value as? String
        case ("major", .iBeacon(let f)): return Int(f.major) == int
        case ("minor", .iBeacon(let f)): return Int(f.minor) == int
        case ("tx_power", .iBeacon(let f)): return Int(f.measuredPower) == int
        case ("id1", .altBeacon), ("id2", .altBeacon), ("id3", .altBeacon):
            guard case .altBeacon(let id1, let id2, let id3) = BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0)) else { return false }
            return key == "id1" ? id1.description.lowercased() == value as? String : Int(key == "id2" ? id2 : id3) == int
        case ("id1_ascii", .altBeacon(let f)):
            let text = (value as? String ?? "").prefix { $0 != "\\" }
            return f.beaconID.starts(with: Array(text.utf8)) && f.beaconID[text.utf8.count] == 0
        case ("ref_rssi", .altBeacon(let f)): return Int(f.referenceRSSI) == int && frame.measuredPower == int
        case ("mfg_id", .altBeacon(let f)): return f.company == UInt16((value as? String ?? "").dropFirst(2), radix: 16)
        case ("mfg_reserved", .altBeacon(let f)), ("missing_data_field", .altBeacon(let f)): return Int(f.reserved) == int
        case ("tx_power", .eddystoneUID(let f)): return Int(f.txPowerAt0m) == int && frame.measuredPower == int! - 41
        case ("tx_power", .eddystoneURL(let f)): return Int(f.txPowerAt0m) == int && frame.measuredPower == int! - 41
        case ("tx_power", .eddystoneEID(let f)): return Int(f.txPowerAt0m) == int && frame.measuredPower == int! - 41
        case ("namespace", .eddystoneUID(let f)): return BeaconIdentity.hex(f.namespace) == value as? String
        case ("instance", .eddystoneUID(let f)): return BeaconIdentity.hex(f.instance) == value as? String
        case ("url", .eddystoneURL(let f)): return f.url == value as? String
        case ("eid_hex", .eddystoneEID(let f)): return BeaconIdentity.hex(f.ephemeralID) == value as? String
        case ("tlm_version", .eddystoneTLM(let f)): return Int(f.version) == int
        case (_, .eddystoneTLM(let f)):
            switch (key, f.payload) {
            case ("voltage_mv", .plain(let mv, _, _, _)): return Int(mv) == int
            case ("temperature_c", .plain(_, let t, _, _)): return t == (value as? Double)
            case ("temperature_c_approx", .plain(_, let t, _, _)): return abs((t ?? .nan) - (value as? Double ?? 0)) < 0.1
            case ("advertising_count", .plain(_, _, let count, _)): return Int(count) == int
            case ("seconds_since_boot_raw", .plain(_, _, _, let tenths)): return Int(tenths) == int
            case ("encrypted_data_hex", .encrypted(let data, _, _)): return BeaconIdentity.hex(data) == value as? String
            default: return false
            }
        default: return false
        }
    }

    /// The eTLM decision above, with the same bytes in a structure long enough to hold the salt
    /// and MIC: then it decodes, salt and MIC read big-endian like every Eddystone field
    /// (beacontools reads them little-endian: 44510 and 65470).
    @Test func theEncryptedTLMDecodesWhenItsStructureHoldsSaltAndMIC() throws {
        let ad = SharedData.bytes(hex: "0201060303aafe1516aafe2001414141414141414141414141deadbeff")
        let frame = try #require(BeaconDecoder.decode(ad[...]))
        #expect(frame == .eddystoneTLM(EddystoneTLMFrame(version: 1, payload: .encrypted(data: [UInt8](repeating: 0x41, count: 12), salt: 0xDEAD, integrityCheck: 0xBEFF))))
        #expect(frame.measuredPower == nil)
    }
}
