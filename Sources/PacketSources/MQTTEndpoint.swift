/// A broker named by one string, parsed once, in the style of `SourceSpec`:
///
/// - `mqtt://[user[:password]@]host[:port][/prefix]`: plain TCP, port 1883 by default
/// - `mqtts://...`: TLS, port 8883 by default
///
/// `user` and `password` may carry `%XX` escapes (an `@` or `:` in a password is `%40`, `%3A`).
/// `host` is a name, an IPv4 address or a bracketed IPv6 address (`[::1]`). `prefix` is one or
/// more topic levels put in front of every topic beacontop publishes or subscribes to, so venues
/// can share a broker (`mqtt://broker/hall-b` publishes `hall-b/espresense/devices/...`).
///
/// `description` never shows the password: the string ends up in logs and on screen.
public struct MQTTEndpoint: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    public var tls: Bool
    public var username: String?
    public var password: String?
    /// Topic levels without leading or trailing `/`; empty for none.
    public var prefix: String

    /// The longest prefix taken: with the longest names beacontop puts under it (a 256-byte
    /// scanner name, a beacon id), every topic stays far within MQTT's 65,535 bytes.
    public static let maximumPrefixBytes = 1_024

    public static let defaultPort: UInt16 = 1883
    public static let defaultTLSPort: UInt16 = 8883

    public init(host: String, port: UInt16? = nil, tls: Bool = false, username: String? = nil, password: String? = nil, prefix: String = "") {
        self.host = host
        self.tls = tls
        self.port = port ?? (tls ? Self.defaultTLSPort : Self.defaultPort)
        self.username = username
        self.password = password
        self.prefix = prefix
    }

    /// True for the strings this type parses (the coordinator's `SourceSpec` dispatches on it).
    public static func isEndpoint(_ text: String) -> Bool {
        text.afterScheme("mqtt://") != nil || text.afterScheme("mqtts://") != nil
    }

    public init(parsing text: String) throws(MQTTEndpointError) {
        // Cut when long: a 64 KiB prefix was echoed whole in the line that refused it.
        let redacted = Self.redacted(text)
        let shown = redacted.utf8.count > 200 ? String(redacted.prefix(100)) + "…" : redacted
        func fail(_ part: String, _ problem: String) -> MQTTEndpointError {
            MQTTEndpointError(spec: shown, part: part, problem: problem)
        }
        var rest: Substring
        // In any case (`MQTT://`): URL schemes are case-insensitive (RFC 3986 3.1).
        if let afterScheme = text.afterScheme("mqtt://") {
            tls = false
            rest = afterScheme
        } else if let afterScheme = text.afterScheme("mqtts://") {
            tls = true
            rest = afterScheme
        } else {
            throw fail("scheme", "must be mqtt:// or mqtts://")
        }
        prefix = ""
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
            prefix = try Self.parsePrefix(path, fail: fail)
        }
        username = nil
        password = nil
        // The last '@' ends the credentials: a bare '@' in a password is tolerated that way.
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let user: Substring
            if let colon = credentials.firstIndex(of: ":") {
                user = credentials[..<colon]
                let secret = credentials[credentials.index(after: colon)...]
                guard let decoded = Self.percentDecoded(secret) else { throw fail("password", "has a bad %XX escape") }
                password = decoded
            } else {
                user = credentials
            }
            guard !user.isEmpty else { throw fail("user", "is empty before '@'") }
            guard let decoded = Self.percentDecoded(user) else { throw fail("user", "'\(user)' has a bad %XX escape") }
            username = decoded
        }
        var hostPart = rest
        var portText: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw fail("host", "'\(hostPart)' opens '[' without ']'") }
            let after = hostPart[hostPart.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw fail("host", "'\(hostPart)' has '\(after)' after ']'")
            }
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
        } else if let colon = hostPart.firstIndex(of: ":") {
            portText = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        guard !hostPart.isEmpty else { throw fail("host", "is missing; write \(tls ? "mqtts" : "mqtt")://HOST") }
        guard hostPart.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:%".contains($0)) }) else {
            throw fail("host", "'\(hostPart)' is not a host name or address")
        }
        host = String(hostPart)
        if let portText {
            guard let value = UInt16(portText), value > 0 else {
                throw fail("port", "'\(portText)' is not a port number 1-65535")
            }
            port = value
        } else {
            port = tls ? Self.defaultTLSPort : Self.defaultPort
        }
    }

    /// `prefix` followed by `/` and `topic`, or `topic` alone when there is no prefix.
    public func topic(_ topic: String) -> String {
        prefix.isEmpty ? topic : "\(prefix)/\(topic)"
    }

    public var description: String {
        var text = tls ? "mqtts://" : "mqtt://"
        if let username {
            text += Self.percentEncoded(username)
            if password != nil { text += ":***" }
            text += "@"
        }
        text += host.contains(":") ? "[\(host)]" : host
        if port != (tls ? Self.defaultTLSPort : Self.defaultPort) { text += ":\(port)" }
        if !prefix.isEmpty { text += "/\(prefix)" }
        return text
    }

    private static func parsePrefix(_ path: Substring, fail: (String, String) -> MQTTEndpointError) throws(MQTTEndpointError) -> String {
        var trimmed = path
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if trimmed.isEmpty { return "" }
        if trimmed.contains(where: { $0 == "+" || $0 == "#" }) {
            throw fail("prefix", "'\(trimmed)' holds a wildcard (+ or #); a prefix is plain topic levels")
        }
        if trimmed.split(separator: "/", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw fail("prefix", "'\(trimmed)' has an empty topic level (//)")
        }
        if trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw fail("prefix", "holds a control character")
        }
        // A topic holds at most 65,535 bytes (MQTT 3.1.1 section 1.5.3). A prefix near that made
        // topics libmosquitto refuses: a venue view waited 10 s and blamed the broker ("did not
        // acknowledge the subscriptions"), and an agent's every message carried the prefix whole.
        if trimmed.utf8.count > maximumPrefixBytes {
            throw fail("prefix", "is \(trimmed.utf8.count) bytes long; at most \(maximumPrefixBytes), so every topic under it fits MQTT's 65,535 bytes")
        }
        // An '@' after the first '/' is a user name or password with a bare '/': taken as a
        // prefix, `mqtt://agent:12/34@broker` connected to host `agent`, port 12, and printed the
        // password in its messages.
        if trimmed.contains("@") {
            throw fail("prefix", "holds '@': a '/' in a user name or password is written %2F")
        }
        return String(trimmed)
    }

    /// The spec with the password replaced by `***`, for error messages: everything from the first
    /// ':' to the last '@' of the spec, not of the part before the first '/', so a password with a
    /// bare '/' is hidden whole (`mqtt://agent:pa/ss@host` was printed as it is). A spec whose
    /// prefix holds '@' is refused, so the wider cut hides nothing a valid spec shows.
    static func redacted(_ text: String) -> String {
        guard let schemeEnd = text.range(of: "://") else { return text }
        let afterScheme = text[schemeEnd.upperBound...]
        guard let at = afterScheme.lastIndex(of: "@"), let colon = afterScheme[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<afterScheme.index(after: colon)]) + "***" + String(text[at...])
    }

    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func percentEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~".unicodeScalars.contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

/// A broker spec that could not be parsed: the spec (password hidden), the wrong part, and why.
public struct MQTTEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    public var spec: String
    public var part: String
    public var problem: String

    public var description: String { "broker '\(spec)': \(part) \(problem)" }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
