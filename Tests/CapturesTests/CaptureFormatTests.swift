import Captures
import HCI
import Testing

/// Layouts the shared captures do not cover, built byte by byte: btsnoop H1 and BlueZ monitor,
/// big-endian and nanosecond pcap, big-endian pcapng with if_tsresol, Simple Packet Blocks.
@Suite final class CaptureFormatTests {
    /// An LE Advertising Report event (without indicator) holding one iBeacon.
    static let reportEvent: [UInt8] = AdvertisingReportEncoder.legacyReportEvent([
        Advertisement(timestamp: 0, address: BDAddress("AA:BB:CC:DD:EE:FF")!, addressType: .randomDevice,
                      eventKind: .advNonconnInd, rssi: -67,
                      data: SharedDataBytes.iBeaconAdvertisingData[...]),
    ])
    static let command: [UInt8] = [0x0C, 0x20, 0x02, 0x01, 0x00] // LE Set Scan Enable

    @Test func btsnoopH1TakesTheTypeFromTheFlags() throws {
        var file = CaptureFileBuilder.btsnoop(datalink: 1001)
        file.btsnoopRecord(flags: 2, micros: 1_700_000_000_000_000, data: Self.command)          // sent command
        file.btsnoopRecord(flags: 3, micros: 1_700_000_000_123_456, data: Self.reportEvent)      // received event
        file.btsnoopRecord(flags: 1, micros: 1_700_000_000_200_000, data: [0x01, 0x20, 0x00, 0x00]) // received ACL
        let result = try read(file.bytes)
        #expect(result.packets.map(\.packet.type) == [.command, .event, .aclData])
        #expect(result.packets.map(\.packet.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(Array(result.packets[1].packet.payload) == Self.reportEvent)
        #expect(abs(result.packets[1].packet.timestamp - 1_700_000_000.123456) < 1e-6)
    }

    @Test func btsnoopMonitorMapsOpcodesAndSkipsNotes() throws {
        var file = CaptureFileBuilder.btsnoop(datalink: 2001)
        file.btsnoopRecord(flags: 0, micros: 0, data: Array(repeating: 0, count: 16))          // new index
        file.btsnoopRecord(flags: 12, micros: 1, data: Array("Bluetooth subsystem".utf8))      // system note
        file.btsnoopRecord(flags: 2, micros: 2, data: Self.command)                            // command
        file.btsnoopRecord(flags: 0x0001_0003, micros: 3, data: Self.reportEvent)              // event, hci1
        file.btsnoopRecord(flags: 5, micros: 4, data: [0x01, 0x20, 0x00, 0x00])                // ACL rx
        let result = try read(file.bytes)
        #expect(result.records == 5)
        #expect(result.packets.map(\.packet.type) == [.command, .event, .aclData])
        #expect(result.packets.map(\.packet.direction) == [.hostToController, .controllerToHost, .controllerToHost])
        #expect(try sightings(file.bytes) == 1)
    }

    @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
    func pcapInEitherByteOrderAndResolution(bigEndian: Bool, nanoseconds: Bool) throws {
        var file = CaptureFileBuilder.pcap(bigEndian: bigEndian, nanoseconds: nanoseconds, linkType: 201)
        file.pcapRecord(seconds: 1_700_000_000, fraction: 0, data: [0, 0, 0, 0, 0x01] + Self.command)
        file.pcapRecord(seconds: 1_700_000_001, fraction: nanoseconds ? 250_000_000 : 250_000,
                        data: [0, 0, 0, 1, 0x04] + Self.reportEvent)
        let result = try read(file.bytes)
        #expect(result.packets.map(\.packet.direction) == [.hostToController, .controllerToHost])
        #expect(result.packets[1].packet.timestamp == 1_700_000_001.25)
        #expect(try sightings(file.bytes) == 1)
    }

    @Test(arguments: [false, true])
    func pcapngHonoursByteOrderResolutionAndOffset(bigEndian: Bool) throws {
        var file = CaptureFileBuilder(bigEndian: bigEndian)
        file.sectionHeader()
        file.interface(linkType: 201)                                             // microseconds
        file.interface(linkType: 201, resolution: 9, offsetSeconds: 100)          // nanoseconds, +100 s
        file.interface(linkType: 201, resolution: 0x80 | 10)                      // 2^-10 s
        file.interface(linkType: 1)                                               // Ethernet: skipped
        file.block(type: 5, body: [1, 2, 3, 4, 5, 6, 7, 8])                       // statistics: ignored
        file.enhancedPacket(interface: 0, ticks: 1_700_000_000_500_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        file.enhancedPacket(interface: 1, ticks: 1_700_000_000_250_000_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        file.enhancedPacket(interface: 2, ticks: 1024 * 1_700_000_000 + 512, data: [0, 0, 0, 0, 1] + Self.command)
        file.enhancedPacket(interface: 3, ticks: 0, data: Array(repeating: 0xFF, count: 60))
        let result = try read(file.bytes)
        #expect(result.records == 4)
        #expect(result.packets.map(\.packet.timestamp) == [1_700_000_000.5, 1_700_000_100.25, 1_700_000_000.5])
        #expect(result.packets.map(\.packet.type) == [.event, .event, .command])
        var reader = try CaptureReader(path: try directory.write(file.bytes, name: "skipped.pcapng"))
        while try reader.next() != nil {}
        #expect(reader.skippedRecords == [1: 1])
    }

    /// A packet block larger than the reader's 256 KiB buffer is skipped whole; it was counted
    /// under the first interface's link type (201 here), not its own.
    @Test func anOversizedPacketBlockIsCountedUnderItsOwnInterface() throws {
        var file = CaptureFileBuilder(bigEndian: false)
        file.sectionHeader()
        file.interface(linkType: 201)
        file.interface(linkType: 1)
        file.enhancedPacket(interface: 1, ticks: 0, data: Array(repeating: 0xFF, count: 300_000))
        var reader = try CaptureReader(path: try directory.write(file.bytes, name: "oversized.pcapng"))
        while try reader.next() != nil {}
        #expect(reader.recordCount == 1)
        #expect(reader.skippedRecords == [1: 1])
    }

    @Test func simplePacketBlocksUseInterfaceZeroAndTheLastTime() throws {
        var file = CaptureFileBuilder(bigEndian: false)
        file.sectionHeader()
        file.interface(linkType: 201)
        file.enhancedPacket(interface: 0, ticks: 2_000_000, data: [0, 0, 0, 0, 1] + Self.command)
        file.simplePacket(data: [0, 0, 0, 1, 4] + Self.reportEvent)
        let result = try read(file.bytes)
        #expect(result.packets.count == 2)
        #expect(result.packets[1].packet.timestamp == 2)
        #expect(Array(result.packets[1].packet.payload) == Self.reportEvent)
    }

    @Test func aSecondSectionMaySwitchByteOrder() throws {
        var first = CaptureFileBuilder(bigEndian: false)
        first.sectionHeader()
        first.interface(linkType: 201)
        first.enhancedPacket(interface: 0, ticks: 1_000_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        var second = CaptureFileBuilder(bigEndian: true)
        second.sectionHeader()
        second.interface(linkType: 201)
        second.enhancedPacket(interface: 0, ticks: 3_000_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        let result = try read(first.bytes + second.bytes)
        #expect(result.packets.map(\.packet.timestamp) == [1, 3])
        #expect(result.errors.isEmpty)
    }

    /// A section or interface header larger than the reader's 256 KiB buffer (a long shb_comment or
    /// if_description, in options of 60,000 bytes) was skipped whole, as an unknown block: the second
    /// section kept the first one's interface (187, so its 201 record read as "unknown H4 packet
    /// indicator 0x0"), and a long interface shifted every later one ("interface 1 was never
    /// described"). tshark reads this file as the test expects. A file cut inside such a block
    /// ends there, as inside any other.
    @Test func headerBlocksLargerThanTheBufferAreRead() throws {
        var file = CaptureFileBuilder(bigEndian: false)
        file.sectionHeader()
        file.interface(linkType: 187)
        file.enhancedPacket(interface: 0, ticks: 1_000_000, data: [4] + Self.reportEvent)
        let secondSection = file.bytes.count
        file.sectionHeader(commentBytes: 300_000)
        file.interface(linkType: 201)
        file.enhancedPacket(interface: 0, ticks: 3_000_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        // Milliseconds, said after the long description; then an interface after the long one.
        file.interface(linkType: 187, resolution: 3, descriptionBytes: 300_000)
        file.interface(linkType: 201)
        file.enhancedPacket(interface: 1, ticks: 5_000, data: [4] + Self.reportEvent)
        file.enhancedPacket(interface: 2, ticks: 7_000_000, data: [0, 0, 0, 1, 4] + Self.reportEvent)
        let result = try read(file.bytes)
        #expect(result.packets.map(\.packet.timestamp) == [1, 3, 5, 7])
        #expect(result.records == 4)

        let cut = try readAll(directory.write(Array(file.bytes[..<(secondSection + 200_000)]), name: "cut-in-large-header"))
        #expect(cut.packets.map(\.packet.timestamp) == [1] && cut.errors.isEmpty)
        #expect(cut.truncation?.what == "pcapng Section Header Block" && cut.truncation?.offset == secondSection)
    }

    /// LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR records carry the packet's CRC; a sniffer that did not
    /// check it (flags 0x0001, as every record of ll-phdr-no-rssi.pcapng) left garbled adverts in:
    /// one flipped bit made a device that never advertised. The first record of that capture
    /// (SCAN_RSP from 4A:0E:CD:C0:3C:3B, CRC 95 e2 77, good for tshark) is read; with one AdvA bit
    /// flipped it is not an advertisement, unless the sniffer itself vouched for the CRC (0x0C01).
    @Test func leLinkLayerRecordsWithABadCRCAreNoAdverts() throws {
        let packet: [UInt8] = [0xD6, 0xBE, 0x89, 0x8E, 0x44, 0x06, 0x3B, 0x3C, 0xC0, 0xCD, 0x0E, 0x4A, 0x95, 0xE2, 0x77]
        var flipped = packet
        flipped[9] ^= 0x01
        func record(flags: UInt16, _ pdu: [UInt8]) -> [UInt8] {
            [0, 0, 0, 0, 0, 0, 0, 0, UInt8(flags & 0xFF), UInt8(flags >> 8)] + pdu
        }
        var file = CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 256)
        file.pcapRecord(seconds: 1, fraction: 0, data: record(flags: 0x0001, packet))
        file.pcapRecord(seconds: 2, fraction: 0, data: record(flags: 0x0001, flipped))
        file.pcapRecord(seconds: 3, fraction: 0, data: record(flags: 0x0C01, flipped))
        let result = try read(file.bytes)
        #expect(result.records == 3)
        #expect(result.packets.map(\.packet.timestamp) == [1, 3])
        var decoder = AdvertisingReportDecoder()
        var addresses: [BDAddress] = []
        for (_, packet) in result.packets { try decoder.decode(packet) { addresses.append($0.address) } }
        #expect(addresses == [BDAddress("4A:0E:CD:C0:3C:3B")!, BDAddress("4A:0E:CC:C0:3C:3B")!])
    }

    /// LINKTYPE_BLUETOOTH_LE_LL (251), the packet alone from access address to CRC, was refused as
    /// "not a Bluetooth link type". Its adverts are read as 256's, the CRC always checked (nothing
    /// says a sniffer did) and no RSSI. tshark reads the first as SCAN_RSP from 4a:0e:cd:c0:3c:3b.
    @Test func leLinkLayerWithoutPseudoHeader() throws {
        let packet: [UInt8] = [0xD6, 0xBE, 0x89, 0x8E, 0x44, 0x06, 0x3B, 0x3C, 0xC0, 0xCD, 0x0E, 0x4A, 0x95, 0xE2, 0x77]
        var flipped = packet
        flipped[9] ^= 0x01
        var file = CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 251)
        file.pcapRecord(seconds: 1, fraction: 0, data: packet)
        file.pcapRecord(seconds: 2, fraction: 0, data: flipped)
        let result = try read(file.bytes)
        #expect(result.records == 2)
        var decoder = AdvertisingReportDecoder()
        var adverts: [Advertisement] = []
        for (_, packet) in result.packets { try decoder.decode(packet) { adverts.append($0) } }
        #expect(adverts.map(\.address) == [BDAddress("4A:0E:CD:C0:3C:3B")!])
        #expect(adverts.first?.eventKind == .scanRsp && adverts.first?.rssi == nil && adverts.first?.timestamp == 1)
    }

    /// Sniffers on the LE Coded PHY put a coding-indicator byte between access address and header;
    /// read as the header, an ADV_EXT_IND (tshark: "Coding Indicator: FEC Block 2 coded using S=8",
    /// "PDU Type: ADV_EXT_IND") became an ADV_IND from an address made of its extended header.
    /// Legacy adverts are only sent on LE 1M: coded packets of both sniffer link types are none.
    @Test func leCodedPHYPacketsAreNoLegacyAdverts() throws {
        // Access address, CI 0, header (ADV_EXT_IND, length 8), extended header (length 7, AdvA
        // only) with AdvA 11:22:33:44:55:66, CRC not checked here.
        let advExtInd: [UInt8] = [0xD6, 0xBE, 0x89, 0x8E, 0x00, 0x07, 0x08, 0x07, 0x01, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0, 0, 0]
        var nordic = CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 272)
        // Board, payload length, protocol 3, counter, id 0x02 (advertising PDU); header of 10:
        // flags 0x21 (CRC good, PHY coded), channel 37, RSSI -60, event counter, timestamp.
        let header: [UInt8] = [10, 0x21, 37, 60, 0, 0, 100, 0, 0, 0]
        nordic.pcapRecord(seconds: 1, fraction: 0, data: [0x40, UInt8(header.count + advExtInd.count), 0, 3, 1, 0, 0x02] + header + advExtInd)
        var phdr = CaptureFileBuilder.pcap(bigEndian: false, nanoseconds: false, linkType: 256)
        // Flags 0x8C03: dewhitened, signal power valid, CRC checked and valid, PHY coded.
        phdr.pcapRecord(seconds: 1, fraction: 0, data: [0, 0xC4, 0, 0, 0, 0, 0, 0, 0x03, 0x8C] + advExtInd)
        for file in [nordic, phdr] {
            let result = try read(file.bytes)
            #expect(result.records == 1)
            #expect(result.packets.isEmpty, "\(result.packets.map(\.packet.payload))")
        }
    }

    // MARK: helpers

    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }
    deinit { directory.remove() }

    func read(_ bytes: [UInt8]) throws -> ReadResult {
        let result = try readAll(try directory.write(bytes, name: "capture-\(bytes.count)"))
        #expect(result.errors.isEmpty && result.truncation == nil)
        return result
    }

    func sightings(_ bytes: [UInt8]) throws -> Int {
        try CaptureBeaconScanner.scan(path: try directory.write(bytes, name: "scan-\(bytes.count)"), onSighting: { _ in }).sightings
    }
}

/// iBeacon advertising data (Flags + Apple manufacturer data), E2C56DB5-...:100:1, -59 dBm.
enum SharedDataBytes {
    static let iBeaconAdvertisingData: [UInt8] = [
        0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15,
        0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE4,
        0x00, 0x64, 0x00, 0x01, 0xC5,
    ]
}
