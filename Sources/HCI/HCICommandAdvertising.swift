/// Advertising interval in the controller's unit of 0.625 ms (Core 5.4 Vol 4 Part E 7.8.5).
public struct LEAdvertisingInterval: Sendable, Equatable {
    public var units: UInt32

    public init(units: UInt32) { self.units = units }

    /// From milliseconds; 20 ms to 10.24 s for legacy advertising (0x0020 to 0x4000 units).
    public init(milliseconds: Double) throws(DecodeError) {
        let value = (milliseconds / 0.625).rounded()
        guard value >= 0x20, value <= 0x4000 else {
            throw DecodeError(field: "advertising interval", offset: 0, reason: "\(milliseconds) ms is outside 20 ms to 10240 ms")
        }
        units = UInt32(value)
    }

    public var milliseconds: Double { Double(units) * 0.625 }
}

/// Extended advertising event properties (Core 5.4 Vol 4 Part E 7.8.53, Advertising_Event_Properties).
public enum LEAdvertisingProperties {
    /// A legacy ADV_NONCONN_IND PDU: what a beacon sends (bit 4 legacy, nothing else).
    public static let legacyNonConnectable: UInt16 = 0x0010
    /// A legacy ADV_IND PDU (connectable, scannable).
    public static let legacyConnectableScannable: UInt16 = 0x0013
    /// An extended, non-connectable, non-scannable advertisement (bits all clear).
    public static let extendedNonConnectable: UInt16 = 0x0000
}

extension HCICommand {
    /// LE Set Advertising Parameters (7.8.5). `type` 0x03 is ADV_NONCONN_IND (a beacon), 0x00
    /// ADV_IND. Own address public, all three primary channels (map 0x07), no filter.
    public static func leSetAdvertisingParameters(interval: LEAdvertisingInterval, type: UInt8 = 0x03) -> HCICommand {
        var parameters = littleEndian(UInt16(interval.units), bytes: 2) + littleEndian(UInt16(interval.units), bytes: 2)
        parameters += [type, 0x00, 0x00]
        parameters += [0, 0, 0, 0, 0, 0]
        parameters += [0x07, 0x00]
        return HCICommand(opcode: HCIOpcode.leSetAdvertisingParameters, parameters: parameters)
    }

    /// LE Set Advertising Data (7.8.7): a length and always 31 data bytes, zero padded.
    public static func leSetAdvertisingData(_ data: [UInt8]) -> HCICommand {
        precondition(data.count <= 31, "legacy advertising data holds at most 31 bytes")
        let padded = data + [UInt8](repeating: 0, count: 31 - data.count)
        return HCICommand(opcode: HCIOpcode.leSetAdvertisingData, parameters: [UInt8(data.count)] + padded)
    }

    /// LE Set Advertising Enable (7.8.9).
    public static func leSetAdvertisingEnable(_ enable: Bool) -> HCICommand {
        HCICommand(opcode: HCIOpcode.leSetAdvertisingEnable, parameters: [enable ? 1 : 0])
    }

    /// LE Set Extended Advertising Parameters (7.8.53, the v1 command). Own address type is
    /// random (0x01) when `randomAddress` is true, so the set's address can be set with LE Set
    /// Advertising Set Random Address; LE 1M primary and secondary PHY; TX power "no preference" (0x7F).
    public static func leSetExtendedAdvertisingParameters(
        handle: UInt8, properties: UInt16, interval: LEAdvertisingInterval, randomAddress: Bool = false, sid: UInt8 = 0
    ) -> HCICommand {
        var parameters: [UInt8] = [handle]
        parameters += littleEndian(properties, bytes: 2)
        parameters += littleEndian(interval.units, bytes: 3) + littleEndian(interval.units, bytes: 3)
        parameters += [0x07, randomAddress ? 0x01 : 0x00, 0x00]
        parameters += [0, 0, 0, 0, 0, 0]
        parameters += [0x00, 0x7F, 0x01, 0x00, 0x01, sid, 0x00]
        return HCICommand(opcode: HCIOpcode.leSetExtendedAdvertisingParameters, parameters: parameters)
    }

    /// LE Set Extended Advertising Data (7.8.54) with Operation 0x03 ("complete data") and
    /// Fragment_Preference 0x01 (do not fragment): a beacon's data is one short PDU.
    public static func leSetExtendedAdvertisingData(handle: UInt8, data: [UInt8]) -> HCICommand {
        precondition(data.count <= 251, "one extended advertising data command holds at most 251 bytes")
        return HCICommand(
            opcode: HCIOpcode.leSetExtendedAdvertisingData,
            parameters: [handle, 0x03, 0x01, UInt8(data.count)] + data
        )
    }

    /// LE Set Extended Advertising Enable (7.8.56) for one set, no duration or event limit.
    /// Disabling with no sets listed disables every set.
    public static func leSetExtendedAdvertisingEnable(_ enable: Bool, handles: [UInt8]) -> HCICommand {
        var parameters: [UInt8] = [enable ? 1 : 0, UInt8(handles.count)]
        for handle in handles { parameters += [handle, 0, 0, 0] }
        return HCICommand(opcode: HCIOpcode.leSetExtendedAdvertisingEnable, parameters: parameters)
    }

    /// LE Set Advertising Set Random Address (7.8.52).
    public static func leSetAdvertisingSetRandomAddress(handle: UInt8, address: BDAddress) -> HCICommand {
        HCICommand(opcode: HCIOpcode.leSetAdvertisingSetRandomAddress, parameters: [handle] + address.littleEndianBytes)
    }

    /// LE Remove Advertising Set (7.8.59).
    public static func leRemoveAdvertisingSet(handle: UInt8) -> HCICommand {
        HCICommand(opcode: HCIOpcode.leRemoveAdvertisingSet, parameters: [handle])
    }
}
