import Testing
@testable import HCI

@Suite struct AdvertisingReportRoundTripTests {
    @Test func encodedReportsDecodeToTheSameAdvertisements() throws {
        let first = Advertisement(timestamp: 5, address: BDAddress("11:22:33:44:55:66")!, addressType: .randomDevice,
                                  eventKind: .advNonconnInd, rssi: -67, data: [0x02, 0x01, 0x06][...])
        let second = Advertisement(timestamp: 5, address: BDAddress("AA:BB:CC:DD:EE:FF")!, addressType: .publicDevice,
                                   eventKind: .scanRsp, rssi: nil, data: [][...])
        let packet = AdvertisingReportEncoder.legacyReportPacket([first, second], at: 5)
        var decoder = AdvertisingReportDecoder()
        var seen: [Advertisement] = []
        try decoder.decode(packet) { seen.append($0) }
        #expect(seen.count == 2)
        #expect(seen[0].address == first.address && seen[0].rssi == -67 && Array(seen[0].data) == [0x02, 0x01, 0x06])
        #expect(seen[1].eventKind == .scanRsp && seen[1].rssi == nil && seen[1].data.isEmpty)
    }

    @Test func aReportCountThatLiesThrowsWithTheOffset() {
        var bytes = AdvertisingReportEncoder.legacyReportEvent([
            Advertisement(timestamp: 0, address: BDAddress(rawValue: 1), addressType: .publicDevice,
                          eventKind: .advInd, rssi: -50, data: [][...]),
        ])
        bytes[3] = 3 // claims three reports, holds one
        bytes[1] = UInt8(bytes.count - 2)
        var decoder = AdvertisingReportDecoder()
        var delivered = 0
        #expect(throws: DecodeError.self) {
            try decoder.decode(HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: bytes[...])) { _ in delivered += 1 }
        }
        #expect(delivered == 1)
    }
}
