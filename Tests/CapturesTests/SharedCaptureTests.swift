import BeaconFormats
import Captures
import HCI
import TestFixtures
import Testing

/// The real captures in `shared/data/captures`, checked against the counts Wireshark gives
/// (shared/data/README.md).
@Suite struct SharedCaptureTests {
    struct Expectation: Sendable, CustomStringConvertible {
        var file: String
        var records: Int
        var iBeaconFrames: Int
        var distinctIdentities: Int
        var description: String { file }
    }

    /// The README's table: file, packets, iBeacon frames, distinct identities.
    static let table: [Expectation] = [
        .init(file: "govee-h5100.btsnoop", records: 18509, iBeaconFrames: 99, distinctIdentities: 6),
        .init(file: "govee-h5075-h5074.btsnoop", records: 20595, iBeaconFrames: 21, distinctIdentities: 6),
        .init(file: "govee-misc.btsnoop", records: 17077, iBeaconFrames: 5, distinctIdentities: 3),
        .init(file: "govee-h5105.pcapng", records: 1520, iBeaconFrames: 35, distinctIdentities: 5),
        .init(file: "govee-20230127.pcapng", records: 1726, iBeaconFrames: 17, distinctIdentities: 3),
        .init(file: "govee-5c0f-3.pcapng", records: 163, iBeaconFrames: 3, distinctIdentities: 1),
        .init(file: "govee-h5174-2.pcapng", records: 302, iBeaconFrames: 1, distinctIdentities: 1),
        .init(file: "govee-inout.pcap", records: 159, iBeaconFrames: 2, distinctIdentities: 1),
        .init(file: "govee-no-beacons.pcapng", records: 415, iBeaconFrames: 0, distinctIdentities: 0),
        .init(file: "horizon74.btsnoop", records: 2572, iBeaconFrames: 11, distinctIdentities: 2),
        .init(file: "extcap-no-beacons.btsnoop", records: 222, iBeaconFrames: 0, distinctIdentities: 0),
        .init(file: "pact-nrf-sniffer-6ft.pcapng", records: 9748, iBeaconFrames: 0, distinctIdentities: 0),
        .init(file: "ll-phdr-no-rssi.pcapng", records: 3755, iBeaconFrames: 0, distinctIdentities: 0),
    ]

    /// The README's per-identity listing: count, uuid, major, minor, measured power.
    static let identityListing: [String: String] = [
        "govee-h5100.btsnoop": """
            8  494E5445-4C4C-495F-524F-434B535F4857 20596 3932  -62
            17 494E5445-4C4C-495F-524F-434B535F4857 20596 25984 -62
            14 494E5445-4C4C-495F-524F-434B535F4857 20596 32020 -62
            13 494E5445-4C4C-495F-524F-434B535F4857 20596 39576 -62
            10 494E5445-4C4C-495F-524F-434B535F4857 20597 62207 +12
            29 494E5445-4C4C-495F-524F-434B535F4857 20597 62207 -62
            8  494E5445-4C4C-495F-524F-434B535F4857 20855 62207 -62
            """,
        "govee-h5075-h5074.btsnoop": """
            2  1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6 212   0     +3
            3  1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6 4382  0     +3
            1  1CA92E23-F087-4DF7-B9A2-FD4B716A4BF6 4383  0     +3
            6  2686F39C-BADA-4658-854A-A62E7E5E8B8D 1     0     -55
            2  494E5445-4C4C-495F-524F-434B535F4857 20596 3932  -62
            7  494E5445-4C4C-495F-524F-434B535F4857 20597 62207 -62
            """,
        "horizon74.btsnoop": """
            10 494E5445-4C4C-495F-524F-434B535F4857 20594 62207 -62
            1  494E5445-4C4C-495F-524F-434B535F4857 20597 62207 -62
            """,
    ]

    struct Scan {
        var sightings: [BeaconSighting] = []
        var malformed: [MalformedPacket] = []
        var totals = CaptureScanTotals()
    }

    static func scan(_ file: String) throws -> Scan {
        var scan = Scan()
        scan.totals = try CaptureBeaconScanner.scan(
            path: SharedData.capture(file).path,
            onSighting: { scan.sightings.append($0) },
            onMalformed: { scan.malformed.append($0) }
        )
        return scan
    }

    @Test(arguments: table)
    func iBeaconFramesAndIdentitiesMatchWireshark(_ expected: Expectation) throws {
        let scan = try Self.scan(expected.file)
        #expect(scan.totals.records == expected.records)
        #expect(scan.totals.stoppedBy == nil)
        #expect(scan.totals.truncation == nil)
        let iBeacons = scan.sightings.filter { $0.frame.kind == .iBeacon }
        #expect(iBeacons.count == expected.iBeaconFrames)
        #expect(Set(iBeacons.map(\.identity)).count == expected.distinctIdentities)
    }

    @Test(arguments: ["govee-h5100.btsnoop", "govee-h5075-h5074.btsnoop", "horizon74.btsnoop"])
    func perIdentityCountsAndMeasuredPowerMatchTheListing(_ file: String) throws {
        var expected: [String: Int] = [:]
        for line in Self.identityListing[file]!.split(separator: "\n") {
            let f = line.split(separator: " ")
            let power = Int(f[4].replacingOccurrences(of: "+", with: ""))!
            expected["\(f[1]):\(f[2]):\(f[3]) \(power)"] = Int(f[0])!
        }
        var seen: [String: Int] = [:]
        for sighting in try Self.scan(file).sightings {
            seen["\(sighting.identity) \(sighting.frame.measuredPower!)", default: 0] += 1
        }
        #expect(seen == expected)
    }

    @Test func hostSentPacketsAreMarkedAndNeverSighted() throws {
        // Android logs hold the phone's own HCI commands (flags bit 0 clear).
        let result = try readAll(SharedData.capture("govee-h5100.btsnoop").path)
        let sent = result.packets.filter { $0.packet.direction == .hostToController }
        #expect(!sent.isEmpty)
        #expect(sent.allSatisfy { $0.packet.type != .event })
        #expect(result.packets.filter { $0.packet.type == .command }.allSatisfy { $0.packet.direction == .hostToController })
    }

    @Test func timestampsAreUnixSecondsAndMatchTshark() throws {
        // tshark -r govee-inout.pcap -c 1 -T fields -e frame.time_epoch -> 1701381690.459581
        let pcap = try readAll(SharedData.capture("govee-inout.pcap").path)
        #expect(abs(pcap.packets[0].packet.timestamp - 1_701_381_690.459581) < 1e-6)
        // tshark -r pact-nrf-sniffer-6ft.pcapng -c 1 -> 1588874453.429877 (pcapng, microseconds)
        let nordic = try readAll(SharedData.capture("pact-nrf-sniffer-6ft.pcapng").path)
        #expect(abs(nordic.packets[0].packet.timestamp - 1_588_874_453.429877) < 1e-6)
        let btsnoop = try readAll(SharedData.capture("horizon74.btsnoop").path)
        #expect(btsnoop.packets.allSatisfy { $0.packet.timestamp > 1.5e9 && $0.packet.timestamp < 1.8e9 })
    }

    @Test func linkLayerSnifferAdvertsBecomeReportsWithTheirRSSI() throws {
        // First nRF Sniffer packet (tshark -V): ADV_IND from 5f:ba:26:46:45:c3, random, RSSI -46,
        // AdvData 02 01 1a 02 0a 08 03 03 00 18 11 09 "ECUAS’s iPhone".
        let result = try readAll(SharedData.capture("pact-nrf-sniffer-6ft.pcapng").path)
        var decoder = AdvertisingReportDecoder()
        var adverts: [Advertisement] = []
        try decoder.decode(result.packets[0].packet) { adverts.append($0) }
        #expect(adverts.count == 1)
        #expect(adverts.first?.address == BDAddress("5F:BA:26:46:45:C3"))
        #expect(adverts.first?.addressType == .randomDevice)
        #expect(adverts.first?.rssi == -46)
        #expect(adverts.first?.eventKind == .advInd)
        #expect(adverts.first.map { Array($0.data.prefix(5)) } == [0x02, 0x01, 0x1A, 0x02, 0x0A])
        // The LE LL capture has no valid signal power: its reports carry no RSSI.
        let ll = try readAll(SharedData.capture("ll-phdr-no-rssi.pcapng").path)
        var llAdverts: [Advertisement] = []
        for (_, packet) in ll.packets { try decoder.decode(packet) { llAdverts.append($0) } }
        #expect(llAdverts.count == ll.packets.count)
        // tshark counts 2810 ADV_IND/ADV_NONCONN_IND/SCAN_RSP/ADV_SCAN_IND PDUs there
        // (-e btle.advertising_header.pdu_type -e btle.crc.incorrect -e btle.crc): 2424 with a good
        // CRC, 310 with a bad one, and 76 it finds malformed before reaching the CRC (all 76 fail
        // it). The sniffer checked none of them (flags 0x0001), so the reader checks it: the two
        // 4-byte SCAN_RSPs, once reported malformed, are among the bad.
        #expect(ll.packets.count == 2424)
        #expect(ll.errors.isEmpty, "\(ll.errors)")
        // All 9748 nRF Sniffer records are ADV_IND or ADV_NONCONN_IND with a good CRC.
        #expect(result.packets.count == 9748 && result.errors.isEmpty)
        #expect(llAdverts.allSatisfy { $0.rssi == nil })
    }
}
