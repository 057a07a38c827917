import Captures
import Foundation
import PacketSources
@testable import Sessions
import TestFixtures
import Testing

/// A venue recording's line read without a JSON document (the flat fast path) gives the message the
/// document gives, on every line of the test recordings (every message form, hostile payloads, a
/// bad line) and on seeded mutations of them; the fast path reads most recorded lines.
@Suite("Venue recording lines: the flat reader agrees with the document")
struct VenueRecordingLineTests {
    @Test func flatLinesMatchTheDocument() throws {
        var generator = SeededGenerator(seed: 9)
        var fast = 0
        var total = 0
        for name in ["mixed.venue.ndjson", "prefixed.venue.ndjson"] {
            let file = SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/\(name)")
            let lines = try Data(contentsOf: file).split(separator: UInt8(ascii: "\n")).dropFirst()
            for (number, line) in lines.enumerated() {
                var variants = [Array(line)]
                if number % 7 == 0 {
                    for _ in 0..<6 {
                        var bytes = Array(line)
                        let at = Int.random(in: 0..<bytes.count, using: &generator)
                        let byte = Array(#"{}":,\ 0x"#.utf8 + [0xC3, 0xFF]).randomElement(using: &generator)!
                        if Bool.random(using: &generator) { bytes[at] = byte } else { bytes.insert(byte, at: at) }
                        variants.append(bytes)
                    }
                }
                for (variant, bytes) in variants.enumerated() {
                    if variant == 0 { total += 1 }
                    guard let flat = VenueRecordingReader.message(flat: bytes) else { continue }
                    if variant == 0 { fast += 1 }
                    #expect(flat == (try? VenueRecordingReader.message(document: bytes[...])), "line \(number + 2) of \(name)")
                }
            }
        }
        #expect(total > 2900)
        // All but the lines whose topic has a \u escape (half the fixture's lines naming café).
        #expect(fast > total * 85 / 100, "the flat reader took \(fast) of \(total) recorded lines")
    }
}

/// A venue recording's writer never writes over a file holding bytes (it truncated it: O_TRUNC).
@Suite struct VenueRecordingOverwriteTests {
    @Test func anExistingRecordingIsNeverWrittenOver() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("venue-overwrite-\(UUID().uuidString.prefix(8)).venue.ndjson").path
        try FileManager.default.copyItem(atPath: SharedData.repositoryRoot.appendingPathComponent("Tests/VenueRecordings/mixed.venue.ndjson").path, toPath: path)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CaptureError.outputExists(path: path, bytes: bytes.count)) { _ = try VenueRecordingWriter(path: path, prefix: "") }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}
