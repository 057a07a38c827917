import BeaconFormats

/// The `/` filter: a region `UUID[:major[:minor]]` (as CoreLocation's `CLBeaconRegion` names one) or,
/// when the text is not a region, a case-insensitive substring of the name or id.
public enum RowFilter: Sendable, Equatable {
    case everything
    case text(String)
    case region(uuid: UUIDBytes, major: UInt16?, minor: UInt16?)

    public init(_ text: String) {
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        guard !trimmed.isEmpty else {
            self = .everything
            return
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count <= 3, parts[0].count == 36, let uuid = UUIDBytes(parts[0]) {
            let major = parts.count > 1 ? UInt16(parts[1]) : nil
            let minor = parts.count > 2 ? UInt16(parts[2]) : nil
            // "UUID:abc" is no region: match it as text rather than silently ignoring a part.
            if (parts.count > 1 && major == nil) || (parts.count > 2 && minor == nil) {
                self = .text(trimmed.lowercased())
            } else {
                self = .region(uuid: uuid, major: major, minor: minor)
            }
            return
        }
        self = .text(trimmed.lowercased())
    }

    public func matches(_ row: BeaconRowModel) -> Bool {
        switch self {
        case .everything:
            return true
        case .text(let needle):
            return row.displayName.lowercased().contains(needle)
                || row.identity.description.lowercased().contains(needle)
        case .region(let uuid, let major, let minor):
            switch row.identity {
            case .iBeacon(let u, let ma, let mi), .altBeacon(let u, let ma, let mi):
                return u == uuid && (major == nil || major == ma) && (minor == nil || minor == mi)
            default:
                return false
            }
        }
    }
}
