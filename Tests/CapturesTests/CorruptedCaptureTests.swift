import Captures
import Foundation
import TestFixtures
import Testing

/// Real captures with bytes overwritten at deterministic pseudo-random places: whatever the
/// damage, the scan ends (no trap, no endless loop) and keeps the records before the first fault.
@Suite struct CorruptedCaptureTests {
    @Test(arguments: ["govee-h5105.pcapng", "govee-inout.pcap", "horizon74.btsnoop", "pact-nrf-sniffer-6ft.pcapng"])
    func damagedCopiesScanToTheEnd(_ file: String) throws {
        let original = try Array(Data(contentsOf: SharedData.capture(file)))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: seed >> 33)
        }
        let clean = try readAll(SharedData.capture(file).path)
        for round in 0..<15 {
            var bytes = original
            var firstDamage = Int.max
            for _ in 0..<(1 + round % 5) {
                let at = 24 + next() % (bytes.count - 24)
                bytes[at] = UInt8(truncatingIfNeeded: next())
                firstDamage = min(firstDamage, at)
            }
            let path = try directory.write(bytes, name: "damaged-\(round)")
            var sightings = 0
            let totals = try CaptureBeaconScanner.scan(path: path, onSighting: { _ in sightings += 1 })
            #expect(totals.records <= clean.records + bytes.count / 12)
            // Records that end before the first damaged byte read back exactly as in the clean file
            // (a record ends where the next one starts).
            let damaged = try readAll(path)
            let byOffset = Dictionary(damaged.packets.map { ($0.offset, $0.packet) }, uniquingKeysWith: { a, _ in a })
            let intact = zip(clean.packets, clean.packets.dropFirst()).filter { $1.offset <= firstDamage }.map(\.0)
            #expect(intact.allSatisfy { byOffset[$0.offset] == $0.packet }, "round \(round), damage at \(firstDamage)")
        }
    }
}
