/// The one-byte packet indicator that prefixes every HCI packet on a UART (H4) transport.
/// Core 5.4 Vol 4 Part A 2 ("Protocol"); ISO data is 0x05 since Core 5.2.
public enum H4PacketType: UInt8, Sendable, CaseIterable {
    case command = 0x01
    case aclData = 0x02
    case scoData = 0x03
    case event = 0x04
    case isoData = 0x05
}

/// Which way a packet travelled across the HCI. Captures mark it; only `.controllerToHost`
/// packets can carry received advertisements (Android logs also hold the phone's own commands).
public enum PacketDirection: UInt8, Sendable {
    case hostToController
    case controllerToHost
}
