import HCI

/// What a source hands its consumer: a packet, or news about the source itself. A lost
/// transport is an event to show, not a crash (README "Source spec strings").
public enum SourceEvent: Sendable, Equatable {
    case packet(HCIPacket)
    case notice(SourceNotice)
}
