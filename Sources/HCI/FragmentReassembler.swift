/// Joins the fragments of LE Extended Advertising Reports into whole advertising data, per
/// advertiser and advertising set (Core 5.4 Vol 4 Part E 7.7.65.13: "Data_Status").
///
/// Memory is bounded whatever the air brings: at most `maximumPendingSequences` sequences wait
/// at once (when a new advertiser starts a sequence beyond that, the one least recently added to is
/// dropped and counted in `evictedSequences`), and no sequence grows past `maximumDataLength`, the
/// largest advertising data a controller may hold (HCI_LE_Read_Maximum_Advertising_Data_Length,
/// Core 5.4 Vol 4 Part E 7.8.57: at most 0x0672 = 1650 octets). So the store never holds more than
/// `maximumPendingSequences * maximumDataLength` bytes.
///
/// A sequence that would grow past the limit is discarded: its bytes are freed at once, further
/// "more to come" fragments of it are ignored, and its final fragment ends it without delivering
/// anything (the tail of a too-long advertisement would start mid-structure and read as garbage).
public struct FragmentReassembler: Sendable {
    /// Who a sequence belongs to. The raw address type and SID bytes are kept (0xFF = no ADI).
    public struct Key: Hashable, Sendable {
        public var address: BDAddress
        public var addressType: UInt8
        public var setID: UInt8

        public init(address: BDAddress, addressType: UInt8, setID: UInt8) {
            self.address = address
            self.addressType = addressType
            self.setID = setID
        }
    }

    /// What adding a fragment produced.
    public enum Outcome: Sendable, Equatable {
        /// The fragment was stored; more should follow.
        case waiting
        /// The sequence ended: all its data, and whether the controller said it was truncated.
        case joined([UInt8], status: AdvertisingDataStatus)
        /// The sequence outgrew `maximumDataLength` with this fragment and was discarded.
        case overflowed
        /// The fragment belongs to a sequence discarded earlier; nothing to deliver.
        case discarded
    }

    private struct PendingSequence: Sendable {
        var key: Key
        var data: [UInt8]
        var discarding: Bool
    }

    public static let maximumDataLength = 1650
    public let maximumPendingSequences: Int
    /// Sequences dropped to make room for a newer advertiser.
    public private(set) var evictedSequences = 0
    /// Sequences discarded because they outgrew `maximumDataLength`.
    public private(set) var overflowedSequences = 0
    /// Least recently extended first.
    private var pending: [PendingSequence] = []

    public init(maximumPendingSequences: Int = 16) {
        self.maximumPendingSequences = max(1, maximumPendingSequences)
    }

    public var isEmpty: Bool { pending.isEmpty }
    public var pendingSequenceCount: Int { pending.count }
    public var pendingByteCount: Int { pending.reduce(0) { $0 + $1.data.count } }

    /// Whether a sequence is waiting for `key`: a complete report with nothing pending can be
    /// delivered straight from the event buffer without copying.
    public func hasPending(_ key: Key) -> Bool {
        pending.contains { $0.key == key }
    }

    /// Adds one report's data with its status and says what, if anything, is now whole.
    public mutating func add(_ fragment: ArraySlice<UInt8>, status: AdvertisingDataStatus, for key: Key) -> Outcome {
        var sequence: PendingSequence
        if let index = pending.firstIndex(where: { $0.key == key }) {
            sequence = pending.remove(at: index)
        } else {
            // A lone final fragment (a one-report truncated advertisement) needs no slot.
            guard status == .moreToCome else { return .joined(Array(fragment), status: status) }
            if pending.count >= maximumPendingSequences {
                pending.removeFirst()
                evictedSequences += 1
            }
            sequence = PendingSequence(key: key, data: [], discarding: false)
        }
        if sequence.discarding {
            if status == .moreToCome { pending.append(sequence) }
            return .discarded
        }
        guard sequence.data.count + fragment.count <= Self.maximumDataLength else {
            overflowedSequences += 1
            if status == .moreToCome {
                pending.append(PendingSequence(key: key, data: [], discarding: true))
            }
            return .overflowed
        }
        sequence.data.append(contentsOf: fragment)
        if status == .moreToCome {
            pending.append(sequence)
            return .waiting
        }
        return .joined(sequence.data, status: status)
    }
}
