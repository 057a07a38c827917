extension IBeaconFrame {
    /// The advertising data an iBeacon sends: Flags (LE General Discoverable, BR/EDR not supported)
    /// followed by Apple manufacturer data, 30 bytes in all.
    public var advertisingData: [UInt8] {
        var data: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        data.append(contentsOf: uuid.bytes)
        data.append(contentsOf: [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)])
        data.append(UInt8(bitPattern: measuredPower))
        return data
    }
}
