import Foundation
import Yams

/// The exhibit catalog: beacon identities mapped to names, descriptions, floor positions and
/// calibration overrides, plus optional regions. A hand-edited YAML file (schema in README
/// "Exhibit catalog"); every error names the line and the field.
public struct ExhibitCatalog: Sendable, Equatable {
    public var title: String?
    public var exhibits: [Exhibit]
    /// Regions to monitor. When the file has no `regions` key, each exhibit whose id is
    /// `UUID:major:minor` is its own region (the exhibition-hall use: one booth, one region).
    public var regions: [BeaconRegion]
    /// Metres: beyond this (the near end of its range) an exhibit cannot be nearest
    /// (`RangingConfiguration.nearestWithin`); nil: no limit.
    public var nearestWithin: Double?
    private var indexByID: [String: Int]

    public init(title: String? = nil, exhibits: [Exhibit], regions: [BeaconRegion]? = nil, nearestWithin: Double? = nil) {
        self.title = title
        self.nearestWithin = nearestWithin
        self.exhibits = exhibits
        self.regions = regions ?? exhibits.compactMap(\.region)
        var index: [String: Int] = [:]
        for (position, exhibit) in exhibits.enumerated() where index[exhibit.id] == nil {
            index[exhibit.id] = position
        }
        indexByID = index
    }

    /// The index in `exhibits` of the entry for a beacon id (`BeaconIdentity.description`).
    public func index(ofID id: String) -> Int? { indexByID[id] }

    public func exhibit(forID id: String) -> Exhibit? { index(ofID: id).map { exhibits[$0] } }

    /// Loads a catalog file.
    public init(contentsOf url: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CatalogError(line: nil, field: "file", reason: "cannot read \(url.path): \(error.localizedDescription)")
        }
        self = try ExhibitCatalog(yaml: text)
    }

    /// Parses catalog YAML.
    public init(yaml: String) throws(CatalogError) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw CatalogError(line: Self.line(of: error), field: "YAML", reason: Self.problem(of: error))
        } catch {
            throw CatalogError(line: nil, field: "YAML", reason: "\(error)")
        }
        guard let root, let mapping = root.mapping else {
            throw CatalogError(line: root?.mark?.line, field: "document", reason: "must be a mapping with an `exhibits` list")
        }
        let reader = CatalogNodeReader()
        try reader.rejectUnknownKeys(mapping, allowed: ["title", "exhibits", "regions", "nearestWithin"], path: "")
        let title = try mapping["title"].map { node throws(CatalogError) in try reader.string(node, path: "title") }
        guard let exhibitsNode = mapping["exhibits"] else {
            throw CatalogError(line: root.mark?.line, field: "exhibits", reason: "missing (a list of exhibits is required)")
        }
        guard let list = exhibitsNode.sequence else {
            throw CatalogError(line: exhibitsNode.mark?.line, field: "exhibits", reason: "must be a list")
        }
        var exhibits: [Exhibit] = []
        var seen: [String: Int] = [:]
        for (position, node) in list.enumerated() {
            let exhibit = try reader.exhibit(node, path: "exhibits[\(position)]")
            if let first = seen[exhibit.id] {
                throw CatalogError(line: node.mark?.line, field: "exhibits[\(position)].id", reason: "\(exhibit.id) is already exhibits[\(first)]")
            }
            seen[exhibit.id] = position
            exhibits.append(exhibit)
        }
        var regions: [BeaconRegion]?
        if let regionsNode = mapping["regions"] {
            guard let list = regionsNode.sequence else {
                throw CatalogError(line: regionsNode.mark?.line, field: "regions", reason: "must be a list")
            }
            regions = try list.enumerated().map { position, node throws(CatalogError) in
                try reader.region(node, path: "regions[\(position)]")
            }
        }
        var nearestWithin: Double?
        if let node = mapping["nearestWithin"] {
            let value = try reader.number(node, path: "nearestWithin")
            guard value > 0 else { throw CatalogError(line: node.mark?.line, field: "nearestWithin", reason: "must be a distance above 0 m") }
            nearestWithin = value
        }
        self.init(title: title, exhibits: exhibits, regions: regions, nearestWithin: nearestWithin)
    }

    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _): mark.line
        default: nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _): problem
        default: "\(error)"
        }
    }
}
