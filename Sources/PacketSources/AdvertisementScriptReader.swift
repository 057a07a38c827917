import BeaconFormats
import Captures
import Foundation
import HCI

/// Replays an advertisement script: NDJSON a person writes by hand to stage a scenario
/// (docs/formats.md "Advertisement scripts"). One advertisement per line:
///
/// ```
/// # blank lines and lines starting with # are skipped
/// {"t": 0.0, "address": "C0:00:00:00:00:01", "rssi": -60, "ibeacon": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"}
/// {"t": 0.5, "address": "C0:00:00:00:00:02", "rssi": -71, "data": "0201061aff4c000215..."}
/// ```
///
/// Each line becomes the LE Advertising Report event a controller would send
/// (`AdvertisingReportEncoder`), so a script runs through exactly the pipeline a capture does.
/// A bad line is reported with its line number and field and skipped; the rest still plays.
/// Scripts are small, so the file is read whole.
public struct AdvertisementScriptReader: ReplayPacketReader {
    public let path: String
    private let lines: [Substring]
    private var index = 0

    public init(path: String) throws(AdvertisementScriptError) {
        self.path = path
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AdvertisementScriptError(path: path, line: 0, field: "file", reason: "cannot be read")
        }
        lines = Self.lines(String(decoding: data, as: UTF8.self))
    }

    /// The script's lines, split on the LF byte with a CR before it dropped, so a CRLF script reads
    /// as its LF twin. Splitting on the Character "\n" missed CRLF altogether (a CR LF pair is one
    /// Character, so the whole file was one line) and walked the text grapheme by grapheme, a fifth
    /// of the script fuzzer's time. A lone CR elsewhere stays in its line (JSON whitespace).
    static func lines(_ text: String) -> [Substring] {
        let bytes = text.utf8
        var lines: [Substring] = []
        var start = bytes.startIndex
        while true {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            var end = newline ?? bytes.endIndex
            if end > start, bytes[bytes.index(before: end)] == 0x0D { end = bytes.index(before: end) }
            // Sliced by scalars: a String slice would round the bounds to Character boundaries.
            lines.append(Substring(text.unicodeScalars[start..<end]))
            guard let newline else { return lines }
            start = bytes.index(after: newline)
        }
    }

    /// `line` without leading and trailing spaces and tabs (the blanks `CharacterSet.whitespaces`
    /// held: tab and Unicode's space separators), scalar by scalar: trimming through NSString was
    /// another fifth of the script fuzzer's time.
    static func trimmed(_ line: Substring) -> Substring {
        func isBlank(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "\t" || scalar == " " || (scalar.value > 0x7F && scalar.properties.generalCategory == .spaceSeparator)
        }
        let scalars = line.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isBlank($0) }) else { return line[line.endIndex...] }
        let last = scalars.lastIndex(where: { !isBlank($0) })!
        return Substring(scalars[first...last])
    }

    /// True when the file's first non-blank byte starts a JSON object or a `#` comment:
    /// no btsnoop, pcap or pcapng file starts that way.
    public static func looksLikeScript(path: String) -> Bool {
        guard RecordingFileKind.isReadable(path: path), let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 256)) ?? Data()
        guard let first = head.first(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "#")
    }

    public var endNote: String? { nil }

    /// Seconds from the script's first packet to its last (bad lines left out, as the replay
    /// skips them), or nil when it cannot be read or has none. Scripts are small: read whole.
    public static func span(path: String) -> Double? {
        guard var reader = try? AdvertisementScriptReader(path: path) else { return nil }
        var first: Double?
        var last = 0.0
        while reader.index < reader.lines.count {
            guard let packet = try? reader.nextPacket() else { continue }
            if first == nil { first = packet.timestamp }
            last = packet.timestamp
        }
        return first.map { last - $0 }
    }

    public mutating func nextPacket() throws -> HCIPacket? {
        while index < lines.count {
            let number = index + 1
            let line = Self.trimmed(lines[index])
            index += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            return try packet(line: line, number: number)
        }
        return nil
    }

    private func fail(_ line: Int, _ field: String, _ reason: String) -> AdvertisementScriptError {
        AdvertisementScriptError(path: path, line: line, field: field, reason: reason)
    }

    private func packet(line: Substring, number: Int) throws(AdvertisementScriptError) -> HCIPacket {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else {
            throw fail(number, "line", "is not a JSON object")
        }
        guard let time = (object["t"] as? NSNumber)?.doubleValue else { throw fail(number, "t", "is missing or not a number (seconds)") }
        guard TimestampPolicy.accepts(time) else {
            throw fail(number, "t", "\(time) is outside 0 to \(Int(TimestampPolicy.latest)) s (1970 to 2200, docs/robustness.md)")
        }
        guard let addressText = object["address"] as? String, let address = BDAddress(addressText) else {
            throw fail(number, "address", "is missing or not AA:BB:CC:DD:EE:FF")
        }
        var rssi: Int8?
        if let value = object["rssi"], !(value is NSNull) {
            guard let number = (value as? NSNumber).flatMap({ Int(exactly: $0.doubleValue) }), let dBm = Int8(exactly: number), dBm != 127 else {
                throw fail(number, "rssi", "is not a dBm value from -127 to 126")
            }
            rssi = dBm
        }
        let addressType: AddressType
        switch object["addressType"] as? String ?? "random" {
        case "public": addressType = .publicDevice
        case "random": addressType = .randomDevice
        case let other: throw fail(number, "addressType", "'\(other)' is not public or random")
        }
        let eventKind: AdvertisingEventKind
        switch object["event"] as? String ?? "ADV_NONCONN_IND" {
        case "ADV_IND": eventKind = .advInd
        case "ADV_SCAN_IND": eventKind = .advScanInd
        case "ADV_NONCONN_IND": eventKind = .advNonconnInd
        case "SCAN_RSP": eventKind = .scanRsp
        case let other: throw fail(number, "event", "'\(other)' is not ADV_IND, ADV_SCAN_IND, ADV_NONCONN_IND or SCAN_RSP")
        }
        let data = try advertisingData(object, line: number)
        guard data.count <= 31 else { throw fail(number, "data", "\(data.count) bytes; an advertisement holds at most 31") }
        let advertisement = Advertisement(
            timestamp: time, address: address, addressType: addressType, eventKind: eventKind, rssi: rssi, data: data[...])
        return AdvertisingReportEncoder.legacyReportPacket([advertisement], at: time)
    }

    private static let kinds: [(key: String, kind: BeaconKind)] = [
        ("ibeacon", .iBeacon), ("altbeacon", .altBeacon), ("eddystoneUid", .eddystoneUID), ("eddystoneUrl", .eddystoneURL),
    ]

    private func advertisingData(_ object: [String: Any], line: Int) throws(AdvertisementScriptError) -> [UInt8] {
        let given = (["data"] + Self.kinds.map(\.key)).filter { object[$0] != nil }
        guard given.count == 1, let key = given.first, let text = object[key] as? String else {
            throw fail(line, "data", "give exactly one of data, ibeacon, altbeacon, eddystoneUid, eddystoneUrl (as a string)")
        }
        if key == "data" {
            guard let bytes = BeaconSpec.hexBytes(Substring(text.filter { !$0.isWhitespace })) else {
                throw fail(line, "data", "is not an even number of hex digits")
            }
            return bytes
        }
        var power = -59
        if let value = object["measuredPower"] {
            guard let number = (value as? NSNumber).flatMap({ Int(exactly: $0.doubleValue) }) else {
                throw fail(line, "measuredPower", "is not a whole number of dBm")
            }
            power = number
        }
        let kind = Self.kinds.first { $0.key == key }!.kind
        do { return try BeaconSpec.advertisement(kind: kind, text: text, measuredPower: power).data } catch {
            // The spec names the power in words (as the advertise flag's help does); a script calls it measuredPower.
            throw fail(line, error.field == BeaconSpecError.measuredPowerField ? "measuredPower" : key, error.reason)
        }
    }
}

/// A script line that could not be used: file, line number, field and why. Reading goes on.
public struct AdvertisementScriptError: Error, Sendable, Equatable, CustomStringConvertible, RecoverableReplayError {
    public var path: String
    public var line: Int
    public var field: String
    public var reason: String

    public var isRecoverable: Bool { line > 0 }

    public var description: String {
        line > 0 ? "\(path):\(line): \(field) \(reason); line skipped" : "\(path): \(reason)"
    }

    public var detail: String {
        line > 0 ? "line \(line): \(field) \(reason); line skipped" : reason
    }
}
