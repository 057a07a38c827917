import BeaconFormats

/// The `/` filter: a region `UUID[:major[:minor]]` (as CoreLocation's `CLBeaconRegion` names one) or,
/// when the text is not a region, a case-insensitive substring of the name or id.
public enum RowFilter: Sendable, Equatable {
    case everything
    case text(String)
    case region(uuid: UUIDBytes, major: UInt16?, minor: UInt16?)

    public init(_ text: String) {
        let trimmed = Self.trimmed(text)
        guard !trimmed.isEmpty else {
            self = .everything
            return
        }
        // Only a dashed UUID starts a region: "UUID:abc" or a bare hex word is matched as text rather
        // than a part silently ignored.
        if trimmed.prefix(while: { $0 != ":" }).count == 36, let region = try? BeaconIdentityConstraint(parsing: trimmed) {
            self = .region(uuid: region.uuid, major: region.major, minor: region.minor)
            return
        }
        self = .text(trimmed.lowercased())
    }

    /// `text` without the spaces around it: a filter typed `irk ` matches as `irk`.
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
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
