extension AltBeaconFrame {
    /// The advertising data an AltBeacon sends: Flags (LE General Discoverable, BR/EDR not
    /// supported) and a 0x1B-long manufacturer structure, 31 bytes in all (AltBeacon spec).
    /// `beaconID` must hold 20 bytes.
    public var advertisingData: [UInt8] {
        precondition(beaconID.count == 20, "an AltBeacon id is 20 bytes")
        var data: [UInt8] = [0x02, 0x01, 0x06, 0x1B, 0xFF, UInt8(company & 0xFF), UInt8(company >> 8), 0xBE, 0xAC]
        data.append(contentsOf: beaconID)
        data.append(UInt8(bitPattern: referenceRSSI))
        data.append(reserved)
        return data
    }
}
