import BeaconFormats
import Ranging

/// What the event log calls a region or a venue's beacon: the catalog's exhibit name, as the table,
/// the panel and the venue view name it. A region line read `8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:3`
/// (two lines at 40 columns) where the table beside it said `Lewis Chessmen`: without a `regions`
/// list each exhibit is its own region, named by its id. The NDJSON keeps the id (`region`,
/// `beacon`), which is what a program matches on.
extension ExhibitCatalog {
    /// A region's own name (a `regions` entry's); else, for one beacon's region, its exhibit's name;
    /// else its spec (`UUID[:major[:minor]]`).
    public func logName(for region: BeaconRegion) -> String {
        if let name = region.name, name != region.spec { return name }
        guard region.minor != nil else { return region.spec }
        return logName(forBeacon: region.spec)
    }

    /// A beacon's exhibit name, with its short id after it (`Lewis Chessmen (8F3A2C61…:1:3)`) when
    /// another exhibit or a region has the same name, so two lines stay apart; its id when the
    /// catalog does not name it.
    public func logName(forBeacon id: String) -> String {
        guard let name = exhibit(forID: id)?.name, !name.isEmpty else { return id }
        let sharing = exhibits.filter { $0.name == name }.count + regions.filter { $0.name == name }.count
        guard sharing > 1 else { return name }
        return "\(name) (\(Self.shortID(id)))"
    }

    /// `8F3A2C61…:1:3` for a `UUID:major:minor` id (as the table shows an unnamed beacon); any other
    /// id whole.
    static func shortID(_ id: String) -> String {
        guard let region = BeaconRegion(spec: id), let major = region.major, let minor = region.minor else { return id }
        return BeaconIdentity.iBeacon(uuid: region.uuid, major: major, minor: minor).shortDescription
    }
}
