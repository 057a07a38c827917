/// One HCI packet as it crossed the host/controller boundary, with the time it was seen.
///
/// Time is data: every packet carries its own timestamp (Unix seconds), so replays and tests are
/// deterministic and nothing downstream reads a clock. `payload` excludes the H4 indicator byte.
/// It is an `ArraySlice` so capture readers can hand out views into their read buffer without copying.
public struct HCIPacket: Sendable, Equatable {
    public var timestamp: Double
    public var direction: PacketDirection
    public var type: H4PacketType
    public var payload: ArraySlice<UInt8>

    public init(timestamp: Double, direction: PacketDirection, type: H4PacketType, payload: ArraySlice<UInt8>) {
        self.timestamp = timestamp
        self.direction = direction
        self.type = type
        self.payload = payload
    }

    /// An empty event packet: a buffer for readers that write packets into a variable.
    public static var empty: HCIPacket { HCIPacket(timestamp: 0, direction: .controllerToHost, type: .event, payload: []) }

    /// The packet as H4 bytes: indicator followed by the payload.
    public var h4Bytes: [UInt8] {
        var bytes = [type.rawValue]
        bytes.append(contentsOf: payload)
        return bytes
    }
}
