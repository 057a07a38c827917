import BeaconFormats
import HCI

/// What a source hands its consumer: a packet, a sighting decoded elsewhere, or news about the
/// source itself. A lost transport is an event to show, not a crash (docs/sources.md).
public enum SourceEvent: Sendable, Equatable {
    /// HCI traffic heard by a radio on this machine, or read from a capture: the consumer decodes it
    /// with the one sighting decoder.
    case packet(HCIPacket)
    /// A beacon frame a remote scanner heard and decoded (a venue's scanners reporting through a
    /// broker): no packet to decode, ranged like any other sighting and attributed to `scanner`.
    case sighting(BeaconSighting, scanner: String)
    /// A venue's scanner message (a reading, a status, telemetry) as the broker delivered it: the
    /// consumer's `VenueView` decodes it (issue 11, docs/venue.md).
    case brokerMessage(BrokerMessage)
    case notice(SourceNotice)
}
