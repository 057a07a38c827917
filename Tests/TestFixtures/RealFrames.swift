import BeaconFormats
import Captures
import Foundation
import HCI

/// Advertising data recorded by other people (../shared/data): the bytes the shaped captures are
/// built from, so decoding in these tests runs on real frames and only the timing, addresses and
/// RSSI are ours.
public enum RealFrames {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The AD bytes of every distinct iBeacon scan response in a Govee capture, by identity.
    public static func goveeIBeacons(_ capture: String = "govee-h5100.btsnoop") throws -> [BeaconIdentity: [UInt8]] {
        var found: [BeaconIdentity: [UInt8]] = [:]
        var decoder = AdvertisingReportDecoder()
        for packet in try CapturedEvents.leMetaEvents(in: capture) {
            try decoder.decode(packet) { advertisement in
                guard let frame = BeaconDecoder.decode(advertisement.data), case .iBeacon = frame else { return }
                let identity = BeaconIdentity(frame: frame, address: advertisement.address)
                if found[identity] == nil { found[identity] = Array(advertisement.data) }
            }
        }
        return found
    }

    /// One real Govee iBeacon advertisement: identity 20596:3932 of govee-h5100.btsnoop, measured
    /// power -62 dBm.
    public static func goveeIBeacon() throws -> (identity: BeaconIdentity, data: [UInt8]) {
        let all = try goveeIBeacons()
        guard let (identity, data) = all.first(where: { $0.key.description.hasSuffix(":20596:3932") }) else {
            throw Missing(description: "govee-h5100.btsnoop lacks 20596:3932")
        }
        return (identity, data)
    }

    /// A decode vector's AD bytes by its id (vectors.json, `raw_format` "ad").
    public static func vector(_ id: String) throws -> [UInt8] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: SharedData.vectorsFile)) as? [String: Any]
        guard let vectors = root?["vectors"] as? [[String: Any]], let entry = vectors.first(where: { $0["id"] as? String == id }),
              let hex = entry["raw_hex"] as? String
        else { throw Missing(description: "vectors.json has no vector \(id)") }
        return SharedData.bytes(hex: hex)
    }

    /// beacontools' plain TLM: 2840 mV, 19 °C, 5223 frames, uptime 1094.8 s.
    public static func plainTLM() throws -> [UInt8] { try vector("beacontools_eddystone_tlm") }

    /// The plain TLM with its uptime field (0.1 s units, bytes 21-24 of the AD) set: for a beacon
    /// that restarted. Everything else as recorded.
    public static func plainTLM(uptimeTenths: UInt32) throws -> [UInt8] {
        var bytes = try plainTLM()
        guard bytes[21...24].elementsEqual([0x00, 0x00, 0x2A, 0xC4]) else {
            throw Missing(description: "the TLM vector lacks 10948 tenths where the TLM layout puts them")
        }
        for index in 0..<4 { bytes[21 + index] = UInt8(truncatingIfNeeded: uptimeTenths >> (24 - 8 * index)) }
        return bytes
    }

    /// beacontools' eTLM with its service-data length corrected from 0x11 to 0x15 so the structure
    /// holds the salt and MIC that follow it in the vector (beacontools reads them there).
    public static func encryptedTLM() throws -> [UInt8] {
        var bytes = try vector("beacontools_eddystone_etlm")
        guard let lengthIndex = bytes.firstIndex(of: 0x11) else { throw Missing(description: "the eTLM vector's length byte moved") }
        bytes[lengthIndex] = 0x15
        return bytes
    }

    /// beacontools' Eddystone-UID: namespace 12345678901234678901, instance 000000000001.
    public static func eddystoneUID() throws -> [UInt8] { try vector("beacontools_eddystone_uid") }
}
