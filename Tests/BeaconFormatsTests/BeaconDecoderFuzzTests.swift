import Foundation
import HCI
import Testing
import TestFixtures
@testable import BeaconFormats

/// Random and mutated real advertising data (the shared vectors) through `BeaconDecoder`: it
/// never traps, and whatever it returns is a well-formed frame whose identity prints safely.
@Suite struct BeaconDecoderFuzzTests {
    @Test func mutatedVectorsNeverTrapAndYieldWellFormedFrames() throws {
        let seeds = try DecodeVectorTests.vectors().map(\.ad)
        var rng = SeededGenerator(seed: 0xFEAA)
        var frames: [BeaconKind: Int] = [:]
        for _ in 0..<100_000 {
            var data = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                for _ in 0..<Int.random(in: 1...3, using: &rng) where !data.isEmpty {
                    data[Int.random(in: 0..<data.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
                }
            case 1: data = Array(data.prefix(Int.random(in: 0...data.count, using: &rng)))
            case 2: data = Array(data.dropFirst(Int.random(in: 0...data.count, using: &rng)))
            default: data = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            BeaconDecoder.forEachFrame(in: data[...]) { frame in
                frames[frame.kind, default: 0] += 1
                let id = BeaconIdentity(frame: frame, address: BDAddress(rawValue: 0)).description
                #expect(id.utf8.allSatisfy { $0 >= 0x21 && $0 < 0x7F }, "identity \(id) must be printable ASCII")
                if case .altBeacon(let beacon) = frame { #expect(beacon.beaconID.count == 20) }
            }
            // The in-place walk of `decode` (the hot path) agrees with the `ADStructures` walk.
            var first: BeaconFrame?
            BeaconDecoder.forEachFrame(in: data[...]) { if first == nil { first = $0 } }
            #expect(BeaconDecoder.decode(data[...]) == first)
            // A sub-slice (as decoders hand out) decodes the same as a fresh array.
            let padded = [0xEE] + data + [0xEE]
            #expect(BeaconDecoder.decode(padded[1..<(padded.count - 1)]) == first)
        }
        #expect(Set(frames.keys) == Set(BeaconKind.allCases), "mutations kept every kind reachable: \(frames)")
    }
}
