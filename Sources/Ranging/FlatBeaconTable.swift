import BeaconFormats

/// An iBeacon or AltBeacon identity as three integers, for the per-sighting lookup.
struct FlatBeaconKey: Hashable {
    var high: UInt64
    var low: UInt64
    /// Kind in bits 32..., major (or id2) in 16..31, minor (or id3) in 0..15.
    var rest: UInt64

    init?(_ identity: BeaconIdentity) {
        switch identity {
        case .iBeacon(let uuid, let major, let minor):
            high = uuid.high
            low = uuid.low
            rest = 1 << 32 | UInt64(major) << 16 | UInt64(minor)
        case .altBeacon(let id1, let id2, let id3):
            high = id1.high
            low = id1.low
            rest = 2 << 32 | UInt64(id2) << 16 | UInt64(id3)
        default:
            return nil
        }
    }

    /// An iBeacon frame's key, as `init?(_:)` gives for its identity.
    @inline(__always)
    init(_ frame: IBeaconFrame) {
        high = frame.uuid.high
        low = frame.uuid.low
        rest = 1 << 32 | UInt64(frame.major) << 16 | UInt64(frame.minor)
    }

    /// A multiply-xorshift mix (the finaliser of SplitMix64): beacon ids are not chosen by an
    /// attacker (a flood of forged ids is bounded by `maxBeacons` anyway), so SipHash's
    /// flooding resistance buys nothing here and costs a third of the per-sighting time.
    var mixed: UInt64 {
        var z = high &* 0x9E37_79B9_7F4A_7C15 ^ low &* 0xC2B2_AE3D_27D4_EB4F ^ rest
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Open-addressing hash table (linear probing, backward-shift deletion) from `FlatBeaconKey` to a
/// track position: the engine's per-sighting lookup without SipHash or dictionary overhead.
struct FlatBeaconTable: Sendable {
    private var keys: [FlatBeaconKey]
    private var values: [Int]
    private var mask: Int
    private(set) var count = 0

    init(capacity: Int = 64) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: FlatBeaconKey.empty, count: size)
        values = Array(repeating: -1, count: size)
        mask = size - 1
    }

    subscript(key: FlatBeaconKey) -> Int? {
        get {
            var slot = Int(truncatingIfNeeded: key.mixed) & mask
            while true {
                let value = values[slot]
                if value < 0 { return nil }
                if keys[slot] == key { return value }
                slot = (slot + 1) & mask
            }
        }
        set {
            if let newValue { insert(key, newValue) } else { remove(key) }
        }
    }

    private mutating func insert(_ key: FlatBeaconKey, _ value: Int) {
        if (count + 1) * 2 > values.count { grow() }
        var slot = Int(truncatingIfNeeded: key.mixed) & mask
        while values[slot] >= 0 {
            if keys[slot] == key { values[slot] = value; return }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = value
        count += 1
    }

    private mutating func remove(_ key: FlatBeaconKey) {
        var slot = Int(truncatingIfNeeded: key.mixed) & mask
        while true {
            if values[slot] < 0 { return }
            if keys[slot] == key { break }
            slot = (slot + 1) & mask
        }
        // Backward-shift: move later entries of the probe run into the hole.
        var hole = slot
        var next = (hole + 1) & mask
        while values[next] >= 0 {
            let home = Int(truncatingIfNeeded: keys[next].mixed) & mask
            // The entry at `next` may move to `hole` if its home is not in (hole, next].
            let distanceToNext = (next - home) & mask
            let distanceToHole = (hole - home) & mask
            if distanceToHole <= distanceToNext {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        values[hole] = -1
        count -= 1
    }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        self = FlatBeaconTable(capacity: oldValues.count)
        for slot in oldValues.indices where oldValues[slot] >= 0 {
            insert(oldKeys[slot], oldValues[slot])
        }
    }
}

extension FlatBeaconKey {
    static let empty = FlatBeaconKey(high: 0, low: 0, rest: 0)

    init(high: UInt64, low: UInt64, rest: UInt64) {
        self.high = high
        self.low = low
        self.rest = rest
    }
}
