import Testing
@testable import HCI
import TestFixtures

/// Random and mutated real events through one long-lived decoder: it never traps, every call
/// returns, errors name a field and an offset inside the packet, and the fragment store stays
/// within its bounds. Deterministic (seeded), so a failure replays.
@Suite struct AdvertisingReportFuzzTests {
    static func seeds() throws -> [[UInt8]] {
        var seeds = try CapturedEvents.leMetaEvents(in: "govee-h5100.btsnoop").prefix(300).map { Array($0.payload) }
        seeds += try CapturedEvents.leMetaEvents(in: "extcap-no-beacons.btsnoop").map { Array($0.payload) }
        let long = ExtendedReportReassemblyTests.extendedAdvertisement(ExtendedReportReassemblyTests.adData(length: 700))
        seeds += AdvertisingReportEncoder.extendedReportEvents(fragmenting: long, maximumFragmentLength: 200)
        return seeds
    }

    static func mutate(_ seed: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
        var bytes = seed
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &rng) where bytes.count > 3 {
                bytes[Int.random(in: 3..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case 1: bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
        case 2: bytes += (0..<Int.random(in: 1...40, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        case 3 where bytes.count > 1: bytes[1] = UInt8.random(in: 0...255, using: &rng)              // parameter length lies
        case 4 where bytes.count > 3: bytes[3] = UInt8.random(in: 0...255, using: &rng)              // report count lies
        default:
            let length = Int.random(in: 0...260, using: &rng)
            bytes = [0x3E, UInt8(truncatingIfNeeded: length), Bool.random(using: &rng) ? 0x02 : 0x0D]
                + (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        }
        return bytes
    }

    @Test func randomAndMutatedEventsNeverTrapAndErrorsPointInsideThePacket() throws {
        let seeds = try Self.seeds()
        #expect(seeds.count > 300)
        var rng = SeededGenerator(seed: 0xBEAC0)
        var decoder = AdvertisingReportDecoder()
        var delivered = 0
        var errors = 0
        for _ in 0..<100_000 {
            let bytes = Self.mutate(seeds[Int.random(in: 0..<seeds.count, using: &rng)], &rng)
            let packet = HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: bytes[...])
            do {
                try decoder.decode(packet) { ad in
                    delivered += 1
                    precondition(ad.data.count <= FragmentReassembler.maximumDataLength)
                }
            } catch {
                errors += 1
                #expect(!error.field.isEmpty && error.offset >= 0 && error.offset <= bytes.count, "\(error) in \(bytes)")
            }
            #expect(decoder.reassembler.pendingSequenceCount <= decoder.reassembler.maximumPendingSequences)
            #expect(decoder.reassembler.pendingByteCount <= decoder.reassembler.maximumPendingSequences * FragmentReassembler.maximumDataLength)
        }
        #expect(delivered > 10_000 && errors > 10_000, "the fuzz exercised both paths: \(delivered) delivered, \(errors) errors")
    }

    @Test func malformedEventsNameTheFieldAndOffset() throws {
        let ad = Advertisement(timestamp: 0, address: BDAddress(rawValue: 1), addressType: .publicDevice, eventKind: .advInd,
                               rssi: -50, data: [0x02, 0x01, 0x06][...])
        func decodeError(_ bytes: [UInt8]) -> DecodeError? {
            var decoder = AdvertisingReportDecoder()
            do { try decoder.decode(HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: bytes[...])) { _ in } }
            catch { return error }
            return nil
        }
        var legacy = AdvertisingReportEncoder.legacyReportEvent([ad])
        #expect(decodeError(Array(legacy.dropLast()))?.field == "parameter length")
        legacy[12] = 10 // Data_Length of report 0 runs past the event
        #expect(decodeError(legacy) == DecodeError(field: "report 0 Data_Length", offset: 12, reason: "10 data bytes and RSSI run past the event"))
        var extended = AdvertisingReportEncoder.extendedReportEvent([ad])
        extended[27] = 200
        #expect(decodeError(extended) == DecodeError(field: "report 0 Data_Length", offset: 27, reason: "200 data bytes run past the event"))
        let cut = Array(extended.prefix(20))
        var header = cut
        header[1] = UInt8(cut.count - 2)
        #expect(decodeError(header) == DecodeError(field: "report 0 header", offset: 4, reason: "event ends after 0 of 1 reports"))
        #expect(decodeError([0x3E, 0x01, 0x0D])?.field == "Num_Reports")
    }
}
