import Testing
@testable import HCI
import TestFixtures

/// Fragmented LE Extended Advertising Reports (Core 5.4 Vol 4 Part E 7.7.65.13, Data_Status).
@Suite struct ExtendedReportReassemblyTests {
    /// Valid AD structures adding up to `length` bytes: manufacturer data structures of up to 255
    /// bytes whose values count upwards, so a misplaced fragment shows.
    static func adData(length: Int, seed: UInt8 = 0) -> [UInt8] {
        var data: [UInt8] = []
        var counter = seed
        while data.count < length {
            let value = min(253, length - data.count - 2)
            if value < 0 { data.append(0); continue }
            data.append(UInt8(value + 1))
            data.append(0xFF)
            for _ in 0..<value { data.append(counter); counter &+= 1 }
        }
        return data
    }

    static func extendedAdvertisement(_ data: [UInt8], address: String = "C0:11:22:33:44:55", sid: UInt8? = 3,
                                      status: AdvertisingDataStatus = .complete) -> Advertisement {
        var ad = Advertisement(timestamp: 0, address: BDAddress(address)!, addressType: .randomDevice,
                               eventKind: .extended, extendedProperties: 0x0000, rssi: -71, txPower: -4,
                               setID: sid, data: data[...])
        ad.dataStatus = status
        return ad
    }

    static func decodeAll(_ packets: [HCIPacket], with decoder: inout AdvertisingReportDecoder) throws -> [Advertisement] {
        var seen: [Advertisement] = []
        for packet in packets {
            try decoder.decode(packet) { ad in
                var copy = ad
                copy.data = Array(ad.data)[...]
                seen.append(copy)
            }
        }
        return seen
    }

    @Test(arguments: [1, 31, 100, 229])
    func fragmentsJoinToTheOriginalData(fragmentLength: Int) throws {
        let data = Self.adData(length: FragmentReassembler.maximumDataLength)
        let original = Self.extendedAdvertisement(data)
        let packets = AdvertisingReportEncoder.extendedReportPackets(fragmenting: original, at: 7, maximumFragmentLength: fragmentLength)
        #expect(packets.count == (data.count + fragmentLength - 1) / fragmentLength)
        var decoder = AdvertisingReportDecoder()
        let seen = try Self.decodeAll(packets, with: &decoder)
        let joined = try #require(seen.first)
        #expect(seen.count == 1)
        #expect(Array(joined.data) == data)
        #expect(joined.dataStatus == .complete)
        #expect(joined.address == original.address && joined.setID == 3 && joined.rssi == -71 && joined.txPower == -4)
        #expect(joined.eventKind == .extended)
        #expect(decoder.reassembler.isEmpty)
        try ADStructures.validate(joined.data)
    }

    @Test func interleavedAdvertisersAndSetsAreJoinedSeparately() throws {
        let a = Self.extendedAdvertisement(Self.adData(length: 500, seed: 1), sid: 1)
        let b = Self.extendedAdvertisement(Self.adData(length: 400, seed: 2), sid: 2)            // same address, other set
        let c = Self.extendedAdvertisement(Self.adData(length: 300, seed: 3), address: "C0:00:00:00:00:01", sid: 1)
        let streams = [a, b, c].map { AdvertisingReportEncoder.extendedReportPackets(fragmenting: $0, at: 1, maximumFragmentLength: 120) }
        var interleaved: [HCIPacket] = []
        for index in 0..<streams.map(\.count).max()! {
            for stream in streams where index < stream.count { interleaved.append(stream[index]) }
        }
        var decoder = AdvertisingReportDecoder()
        let seen = try Self.decodeAll(interleaved, with: &decoder)
        #expect(seen.count == 3)
        for original in [a, b, c] {
            let match = seen.first { $0.address == original.address && $0.setID == original.setID }
            #expect(match.map { Array($0.data) } == Array(original.data))
        }
    }

    @Test func severalFragmentsInOneEventAreJoined() throws {
        let data = Self.adData(length: 150)
        var first = Self.extendedAdvertisement(Array(data[0..<100]), status: .moreToCome)
        first.rssi = -80
        let second = Self.extendedAdvertisement(Array(data[100...]))
        let event = AdvertisingReportEncoder.extendedReportEvent([first, second])
        var decoder = AdvertisingReportDecoder()
        let seen = try Self.decodeAll([HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: event[...])], with: &decoder)
        #expect(seen.count == 1)
        #expect(seen.first.map { Array($0.data) } == data)
        #expect(seen.first?.rssi == -71, "header fields come from the last fragment")
    }

    /// Decision: a truncated sequence is delivered with what arrived, marked `.truncated`; the
    /// structures that arrived whole decode, the cut one stops the walk.
    @Test func aTruncatedSequenceDeliversThePrefixMarkedTruncated() throws {
        let whole: [UInt8] = [0x02, 0x01, 0x06] + Self.adData(length: 300)
        var original = Self.extendedAdvertisement(Array(whole[0..<200]))
        original.dataStatus = .truncated
        let packets = AdvertisingReportEncoder.extendedReportPackets(fragmenting: original, at: 0, maximumFragmentLength: 90)
        #expect(packets.count == 3)
        var decoder = AdvertisingReportDecoder()
        let seen = try Self.decodeAll(packets, with: &decoder)
        let ad = try #require(seen.first)
        #expect(seen.count == 1)
        #expect(ad.dataStatus == .truncated)
        #expect(Array(ad.data) == Array(whole[0..<200]))
        var walker = ADStructures(ad.data)
        #expect(walker.next()?.type == 0x01)
        #expect(walker.next() == nil)
        #expect(walker.malformedOffset == 3, "the cut manufacturer structure is reported where it starts")
        #expect(decoder.reassembler.isEmpty)
    }

    @Test func aSequenceLongerThanTheSpecMaximumIsDiscardedWithAnError() throws {
        let tooLong = Self.extendedAdvertisement(Self.adData(length: FragmentReassembler.maximumDataLength + 1))
        let packets = AdvertisingReportEncoder.extendedReportPackets(fragmenting: tooLong, at: 0, maximumFragmentLength: 200)
        var decoder = AdvertisingReportDecoder()
        var delivered = 0
        var errors: [DecodeError] = []
        for packet in packets {
            do { try decoder.decode(packet) { _ in delivered += 1 } } catch { errors.append(error) }
            #expect(decoder.reassembler.pendingByteCount <= FragmentReassembler.maximumDataLength)
        }
        #expect(delivered == 0)
        #expect(errors.count == 1)
        #expect(errors.first?.field == "report 0 Data" && errors.first?.offset == 2 + 2 + 24)
        #expect(decoder.reassembler.isEmpty && decoder.reassembler.overflowedSequences == 1)
        // The advertiser's next, well-sized advertisement is joined normally.
        let next = Self.extendedAdvertisement(Self.adData(length: 400))
        let seen = try Self.decodeAll(AdvertisingReportEncoder.extendedReportPackets(fragmenting: next, at: 1), with: &decoder)
        #expect(seen.count == 1 && seen.first.map { Array($0.data) } == Array(next.data))
    }

    @Test func theOldestPendingAdvertiserIsEvictedWhenTheStoreIsFull() throws {
        var decoder = AdvertisingReportDecoder(maximumPendingSequences: 2)
        let addresses = ["C0:00:00:00:00:01", "C0:00:00:00:00:02", "C0:00:00:00:00:03"]
        let streams = addresses.map {
            AdvertisingReportEncoder.extendedReportPackets(fragmenting: Self.extendedAdvertisement(Self.adData(length: 300), address: $0), at: 0, maximumFragmentLength: 200)
        }
        for stream in streams { try decoder.decode(stream[0]) { _ in Issue.record("nothing is whole yet") } }
        #expect(decoder.reassembler.pendingSequenceCount == 2)
        #expect(decoder.reassembler.evictedSequences == 1)
        // The evicted first advertiser's last fragment now stands alone and is delivered as it is:
        // its 100 bytes, not 300. The others complete normally.
        var lengths: [BDAddress: Int] = [:]
        for stream in streams { try decoder.decode(stream[1]) { lengths[$0.address] = $0.data.count } }
        #expect(lengths[BDAddress(addresses[0])!] == 100)
        #expect(lengths[BDAddress(addresses[1])!] == 300 && lengths[BDAddress(addresses[2])!] == 300)
    }

    @Test func theReservedDataStatusThrowsNamingEventType() {
        var event = AdvertisingReportEncoder.extendedReportEvent([Self.extendedAdvertisement([0x02, 0x01, 0x06])])
        event[4] |= 0b0110_0000
        var decoder = AdvertisingReportDecoder()
        #expect(throws: DecodeError(field: "report 0 Event_Type", offset: 4, reason: "reserved data status 0b11")) {
            try decoder.decode(HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: event[...])) { _ in }
        }
    }

    @Test func legacyKindsRoundTripThroughExtendedReports() throws {
        for kind in [AdvertisingEventKind.advInd, .advDirectInd, .advScanInd, .advNonconnInd, .scanRsp] {
            let ad = Advertisement(timestamp: 0, address: BDAddress(rawValue: 0x1234), addressType: .publicDevice,
                                   eventKind: kind, rssi: nil, data: [0x02, 0x01, 0x06][...])
            let packets = AdvertisingReportEncoder.extendedReportPackets(fragmenting: ad, at: 0)
            var decoder = AdvertisingReportDecoder()
            let seen = try Self.decodeAll(packets, with: &decoder)
            #expect(seen.count == 1 && seen.first?.eventKind == kind && seen.first?.rssi == nil && seen.first?.setID == nil)
        }
    }

    /// Real legacy-PDU extended reports from an Android log (extcap-no-beacons.btsnoop).
    @Test func realExtendedReportsDecode() throws {
        let events = try CapturedEvents.leMetaEvents(in: "extcap-no-beacons.btsnoop").filter { $0.payload.dropFirst(2).first == 0x0D }
        #expect(events.count == 12)
        var decoder = AdvertisingReportDecoder()
        let seen = try Self.decodeAll(events, with: &decoder)
        #expect(seen.count == 12)
        #expect(Set(seen.map(\.address.description)) == ["4D:AB:43:2A:3F:10"])
        #expect(Set(seen.map(\.eventKind)) == [.advInd, .scanRsp])
        #expect(seen.allSatisfy { $0.setID == nil && $0.txPower == nil && $0.dataStatus == .complete })
        #expect(seen.first.map { Array($0.data) } == [0x02, 0x01, 0x02, 0x03, 0x03, 0xF3, 0xFE])
        #expect(seen.first?.rssi == -68)
    }
}

extension ExtendedReportReassemblyTests {
    @Test func aLoneTruncatedReportIsDeliveredWithoutTakingASlot() throws {
        var decoder = AdvertisingReportDecoder(maximumPendingSequences: 1)
        let waiting = Self.extendedAdvertisement(Self.adData(length: 300), address: "C0:00:00:00:00:01")
        let firstOfWaiting = AdvertisingReportEncoder.extendedReportPackets(fragmenting: waiting, at: 0, maximumFragmentLength: 200)
        try decoder.decode(firstOfWaiting[0]) { _ in }
        let lone = Self.extendedAdvertisement([0x02, 0x01, 0x06, 0x05, 0xFF], address: "C0:00:00:00:00:02", status: .truncated)
        let seen = try Self.decodeAll(AdvertisingReportEncoder.extendedReportPackets(fragmenting: lone, at: 0), with: &decoder)
        #expect(seen.count == 1 && seen.first?.dataStatus == .truncated && seen.first?.data.count == 5)
        #expect(decoder.reassembler.evictedSequences == 0 && decoder.reassembler.pendingSequenceCount == 1)
    }
}
