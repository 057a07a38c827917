import Testing
@testable import HCI

@Suite struct BDAddressTests {
    @Test func printsMostSignificantByteFirst() {
        let address = BDAddress(littleEndian: [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA])
        #expect(address.description == "AA:BB:CC:DD:EE:FF")
        #expect(BDAddress("aa:bb:cc:dd:ee:ff") == address)
        #expect(address.littleEndianBytes == [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA])
    }

    @Test func rejectsMalformedText() {
        #expect(BDAddress("AA:BB:CC:DD:EE") == nil)
        #expect(BDAddress("AA:BB:CC:DD:EE:GG") == nil)
    }
}
