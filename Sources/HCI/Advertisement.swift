/// The kind of advertising PDU a report describes, folded to the legacy names people know.
/// Extended reports carry a property bit field instead; `AdvertisingEventKind(extendedProperties:)`
/// maps it (Core 5.4 Vol 4 Part E 7.7.65.13, Event_Type).
public enum AdvertisingEventKind: UInt8, Sendable, CaseIterable {
    case advInd = 0x00
    case advDirectInd = 0x01
    case advScanInd = 0x02
    case advNonconnInd = 0x03
    case scanRsp = 0x04
    /// An extended (non-legacy) advertisement; the bit field is kept in `Advertisement.extendedProperties`.
    case extended = 0x10

    /// A legacy report's Event_Type (Core 5.4 Vol 4 Part E 7.7.65.2); reserved values read as ADV_IND.
    @inlinable
    public init(legacyCode code: UInt8) {
        switch code {
        case 0x01: self = .advDirectInd
        case 0x02: self = .advScanInd
        case 0x03: self = .advNonconnInd
        case 0x04: self = .scanRsp
        default: self = .advInd
        }
    }

    /// The name as the Core specification and btmon print it.
    public var name: String {
        switch self {
        case .advInd: "ADV_IND"
        case .advDirectInd: "ADV_DIRECT_IND"
        case .advScanInd: "ADV_SCAN_IND"
        case .advNonconnInd: "ADV_NONCONN_IND"
        case .scanRsp: "SCAN_RSP"
        case .extended: "ADV_EXT_IND"
        }
    }
}

/// One received advertisement: who sent it, how loud, and its AD structures.
///
/// `data` is a view into the decoder's buffer; copy it (`Array(data)`) before keeping it past the
/// next packet if the producer says its buffer is reused.
public struct Advertisement: Sendable, Equatable {
    public var timestamp: Double
    public var address: BDAddress
    public var addressType: AddressType
    public var eventKind: AdvertisingEventKind
    /// Raw Event_Type bits of an extended report (0 for legacy reports).
    public var extendedProperties: UInt16
    /// Received signal strength in dBm; nil when the controller said 127 ("not available").
    public var rssi: Int8?
    /// Transmit power the advertiser announced in an extended report; nil when absent (127).
    public var txPower: Int8?
    /// Advertising set id of an extended report; nil for legacy reports (or 0xFF, "no ADI").
    public var setID: UInt8?
    /// The advertising or scan-response data: a sequence of AD structures.
    public var data: ArraySlice<UInt8>
    /// `.truncated` when an extended advertiser's controller gave up before the data was whole:
    /// `data` is then the prefix that arrived (its last AD structure may be cut; `ADStructures`
    /// stops there). Never `.moreToCome`: fragments are joined before delivery.
    public var dataStatus: AdvertisingDataStatus = .complete

    public init(
        timestamp: Double, address: BDAddress, addressType: AddressType, eventKind: AdvertisingEventKind,
        extendedProperties: UInt16 = 0, rssi: Int8?, txPower: Int8? = nil, setID: UInt8? = nil,
        data: ArraySlice<UInt8>
    ) {
        self.timestamp = timestamp
        self.address = address
        self.addressType = addressType
        self.eventKind = eventKind
        self.extendedProperties = extendedProperties
        self.rssi = rssi
        self.txPower = txPower
        self.setID = setID
        self.data = data
    }
}
