import BeaconFormats
import Captures
import HCI
import TestFixtures
import Testing

/// One advertisement may carry two beacon frames; the capture decoder (behind `decode`, `replay` and
/// `scan FILE --frames`) must deliver both, as the live pipeline and the monitor range both.
@Suite struct MultiFrameSightingTests {
    /// LE Advertising Report (Core 5.4 Vol 4 Part E 7.7.65.2), one report whose data holds two
    /// Eddystone-URL service-data structures: http://a.com and http://b.com.
    static let event = SharedData.bytes(hex: """
        3e 1e 02 01 03 01 05 00 00 00 00 c0 12
        08 16 aa fe 10 eb 02 61 07
        08 16 aa fe 10 eb 02 62 07
        c4
        """)

    @Test func bothFramesOfOneAdvertisementAreDelivered() throws {
        let packet = HCIPacket(timestamp: 1_700_000_000, direction: .controllerToHost, type: .event, payload: Self.event[...])
        var decoder = BeaconSightingDecoder()
        var ids: [String] = []
        try decoder.decode(packet) { ids.append($0.identity.description) }
        #expect(ids == ["http://a.com", "http://b.com"])
    }

    @Test func forEachFrameAgreesWithDecodeOnTheFirstFrame() throws {
        let data = Self.event[13..<31]
        var frames: [BeaconFrame] = []
        BeaconDecoder.forEachFrame(in: data) { frames.append($0) }
        #expect(frames.count == 2)
        #expect(frames.first == BeaconDecoder.decode(data))
    }
}
