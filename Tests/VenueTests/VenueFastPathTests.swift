import BeaconFormats
import Foundation
import TestFixtures
import Testing
@testable import Venue

/// The venue view's fast paths (the flat JSON reader, topic levels on bytes,
/// names checked on bytes) against the general code they stand in front of, on valid messages in
/// the forms writers use, ids from real captures and thousands of seeded mutations of them: where a
/// fast path decides, it decides what the general path decides; where it steps aside, the general
/// path runs. Each check also counts the fast path taken, so it cannot pass by always stepping aside.
@Suite("Venue fast paths agree with the general parsers")
struct VenueFastPathTests {
    static func ids() throws -> [String] {
        let real = try RealFrames.goveeIBeacons().keys.compactMap(ESPresenseID.string(for:)).sorted()
        #expect(!real.isEmpty)
        return real + [
            "iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1", "altBeacon:11223344-5566-7788-99aa-bbccddeeff00-7-9",
            "eddy:0102030405050607080910-a1b2c3d4e5f6", "irk:0011aabb", "name:Visitor's phone",
        ]
    }

    static func payloads() throws -> [[UInt8]] {
        var texts: [String] = []
        for id in try ids() {
            texts += [
                #"{"mac":"c01122334455","id":"\#(id)","name":"Lobby","rssi@1m":-59,"rssi":-71.5,"raw":4.12,"distance":3.98,"var":0.64,"int":102}"#,
                #"{ "distance" : 3.5e0 , "rssi" : -70.25, "id" : "\#(id)", "name":"Caf\u00e9 \"east\"", "interval": 102.4, "close": true }"#,
                #"{"id":"\#(id)","rssi":-70,"rssi@1m":null,"rxAdj":0,"rssiVar":1.5,"speed":-0.0,"name":"Café ☕"}"#,
                #"{"id":"\#(id)","rssi":-90,"rssi":-70.5,"mac":12,"int":null}"#,
                #"{"id":"\#(id)","distance":1E1,"extra":{"nested":[1,2]}}"#,
                #"{"id":"\#(id)","rssi":-61,"raw":-1.5e-2,"var":0.0000001234567890123,"distance":12345678901234567.0}"#,
                "\t{\"rssi\":-66,\n\"id\":\"\(id)\"}\r\n",
            ]
        }
        return texts.map { Array($0.utf8) }
    }

    /// Seeded mutations: a byte deleted, replaced or inserted (from bytes that matter to JSON and
    /// UTF-8), or a piece repeated.
    static func mutations(of seed: [UInt8], count: Int, generator: inout SeededGenerator) -> [[UInt8]] {
        let interesting: [UInt8] = Array(#"{}[]:,"\/ -+.0123456789eEnultrfx"#.utf8) + [0x00, 0x1B, 0x7F, 0x80, 0xC2, 0x85, 0xCC, 0x81, 0xE2, 0xFF]
        var out: [[UInt8]] = []
        for _ in 0..<count {
            var bytes = seed
            for _ in 0...Int.random(in: 0...2, using: &generator) {
                let at = Int.random(in: 0...max(0, bytes.count - 1), using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes.remove(at: at)
                case 1 where !bytes.isEmpty: bytes[at] = interesting.randomElement(using: &generator)!
                case 2: bytes.insert(interesting.randomElement(using: &generator)!, at: at)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...12, using: &generator))
                    bytes.insert(contentsOf: Array(bytes[at..<end]), at: end)
                }
            }
            out.append(bytes)
        }
        return out
    }

    enum Outcome<Value: Equatable, Failure: Equatable>: Equatable {
        case value(Value)
        case failure(Failure)
    }

    @Test("An ESPresense payload reads the same through the flat reader as through the document, errors included")
    func espresensePayloads() throws {
        var generator = SeededGenerator(seed: 6)
        var fast = 0
        var total = 0
        for seed in try Self.payloads() {
            for payload in [seed] + Self.mutations(of: seed, count: 60, generator: &generator) {
                func outcome(_ read: ([UInt8]) throws(VenueMessageError) -> ESPresenseDeviceMessage) -> Outcome<ESPresenseDeviceMessage, VenueMessageError> {
                    do { return .value(try read(payload)) } catch { return .failure(error) }
                }
                let both = outcome(ESPresenseDeviceMessage.init(json:))
                #expect(both == outcome(ESPresenseDeviceMessage.init(document:)), "\(String(decoding: payload, as: UTF8.self))")
                total += 1
            }
            if JSONFlatObject(seed, keys: ["id"]) != nil { fast += 1 }
        }
        #expect(total > 2000)
        // Every written form but the one with a nested value.
        let seeds = try Self.payloads().count
        #expect(fast == seeds * 6 / 7, "the flat reader took \(fast) of the unmutated payloads")
    }

    @Test("Whatever the flat reader accepts, the document parser accepts with the same members")
    func flatMembersMatchTheDocument() throws {
        var generator = SeededGenerator(seed: 7)
        let keys: [StaticString] = ["id", "mac", "name", "rssi", "distance", "close", "int", "extra", "payload"]
        let names = ["id", "mac", "name", "rssi", "distance", "close", "int", "extra", "payload"]
        let envelope = Array(#"{"t":1795411724.123456,"topic":"espresense/devices/x/caf\u00e9","payload":"{\"id\":\"x\",\"rssi\":-70}","retained":true}"#.utf8)
        var accepted = 0
        for seed in try Self.payloads() + [envelope] {
            for payload in [seed] + Self.mutations(of: seed, count: 60, generator: &generator) {
                guard let flat = JSONFlatObject(payload, keys: keys, utf8Key: 8) else { continue }
                accepted += 1
                let document = try #require(try? JSONValue(parsing: payload), "\(String(decoding: payload, as: UTF8.self))")
                for (index, name) in names.enumerated() {
                    let expected = document[name]
                    switch flat[index] {
                    case nil: #expect(expected == nil)
                    case .null?: #expect(expected == .null)
                    case .bool(let value)?: #expect(expected == .bool(value))
                    case .number(let value)?: #expect(expected == .number(value))
                    case .string?: #expect(expected == .string(try #require(flat.string(index))))
                    case .utf8?: #expect(expected == .string(String(decoding: flat.utf8, as: UTF8.self)))
                    }
                }
            }
        }
        #expect(accepted > 500)
    }

    @Test("Topic levels split on bytes where the Character split agrees, under any prefix")
    func topicLevels() {
        let topics = [
            "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/kitchen", "beacontop/scanners/pi-a/status",
            "site/hall-2/espresense/rooms/x/status", "site/hall-2x/espresense/rooms/x/status", "site/hall-2", "site/hall-2/", "site//a/b/c/d",
            "", "/", "//", "a/b/c/d", "espresense/devices/x/\u{301}hall", "espresense/devices/x/caf\u{E9}", "espresense/devices/x/cafe\u{301}",
            "caf\u{E9}/a/b/c/d", "cafe\u{301}/a/b/c/d", "a/\u{301}b", "\u{600}/a/b/c", "a\r\n/b/c/d", "site/hall-2/a/b/c/d/e",
        ]
        var decided = 0
        for prefix in ["", "site/hall-2", "site", "site/", "caf\u{E9}", "cafe\u{301}", "a"] {
            let venue = VenueTopics(prefix: prefix)
            for topic in topics {
                #expect(venue.levels(of: topic) == venue.splitLevels(of: topic), "\(topic) under \(prefix)")
                if VenueTopics.asciiLevels(of: topic, prefix: prefix) != nil { decided += 1 }
            }
        }
        #expect(decided > 60)
    }

    @Test("A name is refused for exactly the control characters its scalars hold")
    func names() {
        let samples = ["hall", "café", "a\u{1B}b", "a\u{7F}", "a\u{80}", "a\u{85}", "a\u{9F}", "a\u{A0}", "a\u{100}", "a\u{C280}",
                       "\u{0}", "tab\there", "☕", "e\u{301}", "", String(repeating: "x", count: 256), String(repeating: "x", count: 257),
                       String(repeating: "é", count: 128), String(repeating: "é", count: 129), "\u{1F600}\u{9F}"]
        for sample in samples {
            let expected = !sample.isEmpty && sample.utf8.count <= 256
                && !sample.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            #expect(((try? VenueMessageDecoder.name(sample)) != nil) == expected, "\(sample.debugDescription)")
            #expect(((try? VenueMessageDecoder.name(Substring(sample))) != nil) == expected, "\(sample.debugDescription)")
        }
    }
}

@Suite("JSON numbers: the exact fast path rounds as the standard library does")
struct JSONNumberTests {
    @Test("Decimals of up to 19 digits and mantissas around 2^53 parse to Double(text)'s value")
    func numbersMatchTheStandardLibrary() throws {
        var generator = SeededGenerator(seed: 10)
        var texts = ["1795411724.123456", "9007199254740992", "9007199254740993", "900719925474099.3", "-0.0", "0", "-69.5",
                     "0.0000001234567890123", "12345678901234567.0", "1e22", "123456789012345678901", "0.1", "1767225600.25"]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &generator)
            var mantissa = String(UInt64.random(in: 1...UInt64.max, using: &generator))
            if mantissa.count > digits { mantissa = String(mantissa.prefix(digits)) }
            let point = Int.random(in: 0...mantissa.count, using: &generator)
            var text = point == mantissa.count ? mantissa : String(mantissa.prefix(point == 0 ? 1 : point)) + "." + mantissa.dropFirst(point == 0 ? 1 : point)
            if text.hasSuffix(".") { text.removeLast() }
            if Bool.random(using: &generator) { text = "-" + text }
            texts.append(text)
        }
        for text in texts {
            let parsed = try JSONValue(parsing: Array(text.utf8)).number
            #expect(parsed?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}
