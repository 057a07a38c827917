import BeaconFormats

/// The nearest exhibit, shown in a panel while the visitor is near or immediate (issue 5 item 3).
public struct NearestExhibit: Sendable, Equatable {
    public var identity: BeaconIdentity
    public var name: String
    /// One or two sentences from the catalog.
    public var description: String
    public var proximity: ProximityClass

    public init(identity: BeaconIdentity, name: String, description: String, proximity: ProximityClass) {
        self.identity = identity
        self.name = name
        self.description = description
        self.proximity = proximity
    }

    /// The panel is shown only while the visitor is close; farther away it is dismissed.
    public var showsPanel: Bool { proximity == .immediate || proximity == .near }

    /// Lines its panel takes: none while it is not shown, the rule alone for an exhibit with no
    /// description (an uncatalogued beacon: three blank lines took half of a 40x12 table's rows).
    public var panelLines: Int { !showsPanel ? 0 : description.isEmpty ? 1 : TableGeometry.panelLines }
}
