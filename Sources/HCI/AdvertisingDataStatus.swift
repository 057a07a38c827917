/// Data status of an LE Extended Advertising Report: bits 5-6 of Event_Type
/// (Core 5.4 Vol 4 Part E 7.7.65.13). A controller splits advertising data longer than one event
/// into fragments; every fragment but the last says `.moreToCome`.
public enum AdvertisingDataStatus: UInt8, Sendable, CaseIterable {
    /// The data is whole (or this is the last fragment of it).
    case complete = 0b00
    /// More fragments of this advertiser's data follow in later reports.
    case moreToCome = 0b01
    /// The controller gave up (for example it missed an AUX_CHAIN_IND): no more data will come and
    /// what was received is a prefix of the real data.
    case truncated = 0b10

    /// The status bits of an extended report's Event_Type; nil for the reserved value 0b11.
    public init?(extendedProperties: UInt16) {
        self.init(rawValue: UInt8((extendedProperties >> 5) & 0b11))
    }
}
