/// Well-known AD types (Bluetooth Assigned Numbers, "Common Data Types").
public enum ADType {
    public static let flags: UInt8 = 0x01
    public static let incompleteServiceUUIDs16: UInt8 = 0x02
    public static let completeServiceUUIDs16: UInt8 = 0x03
    public static let shortenedLocalName: UInt8 = 0x08
    public static let completeLocalName: UInt8 = 0x09
    public static let txPowerLevel: UInt8 = 0x0A
    @inlinable public static var serviceData16: UInt8 { 0x16 }
    @inlinable public static var manufacturerSpecificData: UInt8 { 0xFF }
}

/// One AD structure: its type and value (the bytes after the type byte).
public struct ADStructure: Sendable, Equatable {
    public var type: UInt8
    public var value: ArraySlice<UInt8>
}

/// Walks the AD structures of advertising data without copying (Core 5.4 Vol 3 Part C 11,
/// Supplement to the Core Specification Part A).
///
/// Each structure is `length, type, value[length - 1]`. A zero length ends the significant part
/// (the rest is padding, as RadBeacon and others send). A length that runs past the buffer stops
/// the walk; `malformedOffset` then says where, so callers can count it rather than guess.
public struct ADStructures: Sequence, IteratorProtocol, Sendable {
    private let data: ArraySlice<UInt8>
    private var position: Int
    /// Offset (from the start of `data`) of a structure whose length overran the buffer, if any.
    public private(set) var malformedOffset: Int?

    public init(_ data: ArraySlice<UInt8>) {
        self.data = data
        self.position = data.startIndex
    }

    public mutating func next() -> ADStructure? {
        guard position < data.endIndex else { return nil }
        let length = Int(data[position])
        if length == 0 { position = data.endIndex; return nil }
        let valueStart = position + 2
        let end = position + 1 + length
        guard end <= data.endIndex else {
            malformedOffset = position - data.startIndex
            position = data.endIndex
            return nil
        }
        let structure = ADStructure(type: data[position + 1], value: data[valueStart..<end])
        position = end
        return structure
    }

    /// Throws a `DecodeError` naming the offset of the first structure that overruns the buffer.
    public static func validate(_ data: ArraySlice<UInt8>) throws(DecodeError) {
        var walker = ADStructures(data)
        while walker.next() != nil {}
        if let offset = walker.malformedOffset {
            throw DecodeError(field: "AD structure length", offset: offset, reason: "runs past the end of the data")
        }
    }

    /// The first structure of the given type, if any.
    public static func first(ofType type: UInt8, in data: ArraySlice<UInt8>) -> ADStructure? {
        var walker = ADStructures(data)
        while let structure = walker.next() {
            if structure.type == type { return structure }
        }
        return nil
    }
}
