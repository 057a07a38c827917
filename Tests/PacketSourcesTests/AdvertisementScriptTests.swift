import BeaconFormats
import Captures
import Foundation
import HCI
import Testing
import TestFixtures
@testable import PacketSources

@Suite("Advertisement scripts")
struct AdvertisementScriptTests {
    static func write(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString.prefix(8)).ndjson")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func frames(_ path: String) throws -> (frames: [BeaconSighting], errors: [String]) {
        var reader = try AdvertisementScriptReader(path: path)
        var pipeline = BeaconSightingDecoder()
        var frames: [BeaconSighting] = []
        var errors: [String] = []
        while true {
            do {
                guard let packet = try reader.nextPacket() else { break }
                try pipeline.decode(packet) { frames.append($0) }
            } catch {
                errors.append("\(error)")
            }
        }
        return (frames, errors)
    }

    @Test("each beacon shorthand and raw data become the frames a controller would report")
    func shorthands() throws {
        let path = try Self.write("""
            # a museum door: three beacons and a thermometer
            {"t": 100.0, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}

            {"t": 100.5, "address": "C0:00:00:00:00:02", "rssi": -71, "altbeacon": "2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:2", "measuredPower": -65}
            {"t": 101, "address": "C0:00:00:00:00:03", "eddystoneUid": "EDD1EBEAC04E5DEFA017:0BADC0FFEE01", "addressType": "public"}
            {"t": 101.5, "address": "C0:00:00:00:00:04", "rssi": -80, "eddystoneUrl": "https://example.com", "event": "ADV_IND"}
            {"t": 102, "address": "C0:00:00:00:00:05", "rssi": -50, "data": "02 01 06 09 09 54 68 65 72 6d 6f 2d 37"}
            {"t": 102.5, "address": "C0:00:00:00:00:01", "rssi": -61, "data": "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e400010002c5"}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(AdvertisementScriptReader.looksLikeScript(path: path))
        let (frames, errors) = try Self.frames(path)
        #expect(errors.isEmpty)
        #expect(frames.map { "\($0.timestamp) \($0.address) \($0.rssi.map(String.init) ?? "nil") \($0.identity) \($0.frame.measuredPower ?? 0)" } == [
            "100.0 C0:00:00:00:00:01 -60 E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2 -59",
            "100.5 C0:00:00:00:00:02 -71 2F234454-CF6D-4A0F-ADF2-F4911BA9FFA6:1:2 -65",
            "101.0 C0:00:00:00:00:03 nil edd1ebeac04e5defa017:0badc0ffee01 -59",
            "101.5 C0:00:00:00:00:04 -80 https://example.com -59",
            "102.5 C0:00:00:00:00:01 -61 E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2 -59",
        ])
    }

    @Test("a bad line names its line number and field, and the rest still plays")
    func badLines() throws {
        let path = try Self.write("""
            {"t": 1, "address": "C0:00:00:00:00:01", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}
            {"t": "soon", "address": "C0:00:00:00:00:01"}
            {"t": 2, "address": "C0:00:00:00:01", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}
            {"t": 3, "address": "C0:00:00:00:00:01", "ibeacon": "E2C56DB5:1:2"}
            {"t": 4, "address": "C0:00:00:00:00:01", "data": "0201061"}
            {"t": 5, "address": "C0:00:00:00:00:01", "rssi": 300, "data": "020106"}
            {"t": 6, "address": "C0:00:00:00:00:01"}
            not json
            {"t": 7, "address": "C0:00:00:00:00:01", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3"}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (frames, errors) = try Self.frames(path)
        #expect(frames.map(\.timestamp) == [1, 7])
        #expect(errors.map { $0.replacingOccurrences(of: path, with: "S") } == [
            "S:2: t is missing or not a number (seconds); line skipped",
            "S:3: address is missing or not AA:BB:CC:DD:EE:FF; line skipped",
            "S:4: ibeacon 'E2C56DB5:1:2': UUID 'E2C56DB5' is not 32 hex digits; line skipped",
            "S:5: data is not an even number of hex digits; line skipped",
            "S:6: rssi is not a dBm value from -127 to 126; line skipped",
            "S:7: data give exactly one of data, ibeacon, altbeacon, eddystoneUid, eddystoneUrl (as a string); line skipped",
            "S:8: line is not a JSON object; line skipped",
        ])
    }

    /// Frames and errors (the path taken out) of `text` as a script file.
    static func read(_ text: String) throws -> (frames: [String], errors: [String]) {
        let path = try write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (frames, errors) = try Self.frames(path)
        return (frames.map { "\($0.timestamp) \($0.address) \($0.identity)" }, errors.map { $0.replacingOccurrences(of: path, with: "S") })
    }

    @Test("CRLF, LF and a mix of them read the same lines, with the same line numbers in errors")
    func lineEndings() throws {
        let lines = [
            "# a comment",
            "{\"t\": 1, \"address\": \"C0:00:00:00:00:01\", \"ibeacon\": \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2\"}",
            "",
            "\t {\"t\": 2, \"address\": \"bad\"}  ",
            "\u{A0}{\"t\": 3, \"address\": \"C0:00:00:00:00:02\", \"ibeacon\": \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3\"}\u{3000}",
            "not json",
            "{\"t\": 5, \"address\": \"C0:00:00:00:00:03\", \"ibeacon\": \"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:4\"}",
        ]
        let lf = try Self.read(lines.joined(separator: "\n"))
        #expect(lf.frames == [
            "1.0 C0:00:00:00:00:01 E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2",
            "3.0 C0:00:00:00:00:02 E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3",
            "5.0 C0:00:00:00:00:03 E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:4",
        ])
        #expect(lf.errors == ["S:4: address is missing or not AA:BB:CC:DD:EE:FF; line skipped", "S:6: line is not a JSON object; line skipped"])
        // A CR LF pair is one Character: split on Character "\n", this file was one line.
        #expect(try Self.read(lines.joined(separator: "\r\n")) == lf)
        #expect(try Self.read(lines.joined(separator: "\r\n") + "\r\n") == lf)
        let mixed = lines.enumerated().map { $0.element + ($0.offset % 2 == 0 ? "\r\n" : "\n") }.joined()
        #expect(try Self.read(mixed) == lf)
        // A CR at the very end, and lone CRs inside a line, between JSON tokens, are no line breaks.
        #expect(try Self.read(lines.joined(separator: "\n") + "\r") == lf)
        let innerCR = lines.map { $0.replacingOccurrences(of: ", \"address\"", with: ",\r\"address\"") }
        #expect(try Self.read(innerCR.joined(separator: "\r\n")) == lf)
    }

    @Test("capture files are not taken for scripts")
    func detection() {
        #expect(!AdvertisementScriptReader.looksLikeScript(path: SharedData.capture("horizon74.btsnoop").path))
        #expect(!AdvertisementScriptReader.looksLikeScript(path: SharedData.capture("govee-h5105.pcapng").path))
        #expect(!AdvertisementScriptReader.looksLikeScript(path: "/nonexistent"))
    }

    @Test("a script replays through scan with its pacing, as any capture")
    func throughReplay() async throws {
        let path = try Self.write("""
            {"t": 10, "address": "C0:00:00:00:00:01", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}
            {"t": 11, "address": "C0:00:00:00:00:01", "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}
            {"t": 12, "address": "bad"}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let source = ReplaySource(name: "script", options: ReplayOptions(speed: .max)) { try AdvertisementScriptReader(path: path) }
        let events = try await source.collectAll()
        let statuses = events.notices.map { "\($0)" }
        #expect(events.packets.count == 2)
        // The notice names its source; the line follows, without the file's path a second time.
        #expect(statuses.contains("script: line 3: address is missing or not AA:BB:CC:DD:EE:FF; line skipped"))
        #expect(statuses.last == "script: end of replay after 2 packets")
    }
}

/// Script lines with values no capture could hold: refused by line and field, the rest still play.
@Suite("Advertisement scripts: hostile values")
struct AdvertisementScriptHostileTests {
    @Test("a t of 1e300 or below 0 is refused on its line (it trapped the JSON writer); an rssi of 1e300 too")
    func hugeTimes() throws {
        let (frames, errors) = try AdvertisementScriptTests.frames(HostileInputs.path("script-t-huge.ndjson"))
        #expect(frames.map(\.timestamp) == [0.5, 2.5])
        try #require(errors.count == 3, "\(errors)")
        #expect(errors[0].hasSuffix("script-t-huge.ndjson:2: t 1e+300 is outside 0 to 7258118400 s (1970 to 2200, docs/robustness.md); line skipped"))
        #expect(errors[1].contains(":3: t -1.0 is outside"))
        #expect(errors[2].contains(":4: rssi is not a dBm value"))
    }

    @Test("a bad measuredPower is reported as measuredPower, not as the beacon field")
    func measuredPowerFieldName() throws {
        let (frames, errors) = try AdvertisementScriptTests.frames(HostileInputs.path("script-measured-power.ndjson"))
        #expect(frames.isEmpty)
        try #require(errors.count == 3, "\(errors)")
        #expect(errors[0].contains(":1: measuredPower 300 is not -128 to 127"), "\(errors[0])")
        #expect(errors[1].contains(":2: measuredPower 100 + 41 dB is not a TX power"), "\(errors[1])")
        #expect(errors[2].contains(":3: measuredPower is not a whole number of dBm"), "\(errors[2])")
    }
}
