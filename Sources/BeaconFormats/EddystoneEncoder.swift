/// Advertising data for Eddystone frames (github.com/google/eddystone, protocol-specification.md):
/// Flags, the complete 16-bit service UUID list holding 0xFEAA, then service data 0xFEAA with
/// the frame. The inverse of `EddystoneParser`; `beacontop advertise` and the simulator send it.
enum EddystoneEncoder {
    static func advertisingData(frame: [UInt8]) -> [UInt8] {
        var data: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, UInt8(frame.count + 3), 0x16, 0xAA, 0xFE]
        data.append(contentsOf: frame)
        return data
    }
}

extension EddystoneUIDFrame {
    /// 31 bytes: the UID frame with its two RFU bytes. `namespace` must hold 10 bytes, `instance` 6.
    public var advertisingData: [UInt8] {
        precondition(namespace.count == 10 && instance.count == 6, "an Eddystone-UID is a 10-byte namespace and a 6-byte instance")
        return EddystoneEncoder.advertisingData(frame: [0x00, UInt8(bitPattern: txPowerAt0m)] + namespace + instance + [0x00, 0x00])
    }
}

extension EddystoneURLFrame {
    /// The URL frame with `url` compressed by `EddystoneURLCodec.encode`; throws when the URL has
    /// no http(s) scheme, holds a character that is not printable ASCII, or needs over 17 bytes.
    public func advertisingData() throws(EddystoneURLEncodingError) -> [UInt8] {
        let encoded = try EddystoneURLCodec.encode(url)
        return EddystoneEncoder.advertisingData(frame: [0x10, UInt8(bitPattern: txPowerAt0m)] + encoded)
    }
}

extension EddystoneEIDFrame {
    /// The EID frame. `ephemeralID` must hold 8 bytes.
    public var advertisingData: [UInt8] {
        precondition(ephemeralID.count == 8, "an Eddystone-EID is 8 bytes")
        return EddystoneEncoder.advertisingData(frame: [0x30, UInt8(bitPattern: txPowerAt0m)] + ephemeralID)
    }
}

extension EddystoneTLMFrame {
    /// The TLM frame: plain (temperature rounded to 1/256 °C and clamped to the 8.8 range; nil is
    /// sent as 0x8000, "not supported") or encrypted (`data` must hold 12 bytes).
    public var advertisingData: [UInt8] {
        var frame: [UInt8] = [0x20]
        switch payload {
        case .plain(let battery, let temperature, let count, let uptime):
            frame.append(0x00)
            let raw: Int16 = temperature.map { Int16(max(-32767, min(32767, ($0 * 256).rounded()))) } ?? Int16.min
            frame += bigEndian(UInt32(battery), bytes: 2) + bigEndian(UInt32(UInt16(bitPattern: raw)), bytes: 2)
            frame += bigEndian(count, bytes: 4) + bigEndian(uptime, bytes: 4)
        case .encrypted(let data, let salt, let check):
            precondition(data.count == 12, "eTLM carries 12 encrypted bytes")
            frame.append(0x01)
            frame += data + bigEndian(UInt32(salt), bytes: 2) + bigEndian(UInt32(check), bytes: 2)
        }
        return EddystoneEncoder.advertisingData(frame: frame)
    }

    private func bigEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32(bytes - 1 - $0))) }
    }
}
