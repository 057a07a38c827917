import Foundation
import Yams

/// The exhibit catalog: beacon identities mapped to names, descriptions, floor positions and
/// calibration overrides, plus optional regions. A hand-edited YAML file (schema in docs/formats.md
/// "Catalog format"); every error names the line and the field.
public struct ExhibitCatalog: Sendable, Equatable {
    public var title: String?
    public var exhibits: [Exhibit]
    /// Regions to monitor. When the file has no `regions` key, each exhibit whose id is
    /// `UUID:major:minor` is its own region (the exhibition-hall use: one booth, one region).
    public var regions: [BeaconRegion]
    /// Metres: beyond this (the near end of its range) an exhibit cannot be nearest
    /// (`RangingConfiguration.nearestWithin`); nil: no limit.
    public var nearestWithin: Double?
    /// The floor plan's walls (optional): the survey draws them; ranging ignores them.
    public var walls: [Wall]
    /// Rooms or booths covered by scanners, and the scanners (docs/venue.md); empty for one radio.
    public var rooms: [VenueRoom]
    public var scanners: [VenueScanner]
    private var indexByID: [String: Int]

    public init(
        title: String? = nil, exhibits: [Exhibit], regions: [BeaconRegion]? = nil, nearestWithin: Double? = nil,
        walls: [Wall] = [], rooms: [VenueRoom] = [], scanners: [VenueScanner] = []
    ) {
        self.title = title
        self.nearestWithin = nearestWithin
        self.exhibits = exhibits
        self.regions = regions ?? exhibits.compactMap(\.region)
        self.walls = walls
        self.rooms = rooms
        self.scanners = scanners
        var index: [String: Int] = [:]
        for (position, exhibit) in exhibits.enumerated() where index[exhibit.id] == nil {
            index[exhibit.id] = position
        }
        indexByID = index
    }

    /// The index in `exhibits` of the entry for a beacon id (`BeaconIdentity.description`).
    public func index(ofID id: String) -> Int? { indexByID[id] }

    public func exhibit(forID id: String) -> Exhibit? { index(ofID: id).map { exhibits[$0] } }

    /// Loads a catalog file named on the command line or in a key's prompt.
    public init(path: String) throws {
        self = try ExhibitCatalog(contentsOf: URL(fileURLWithPath: path), named: path)
    }

    /// Loads a catalog file.
    public init(contentsOf url: URL) throws {
        self = try ExhibitCatalog(contentsOf: url, named: url.path)
    }

    private init(contentsOf url: URL, named name: String) throws {
        // Foundation names neither an empty path (read as the working directory) nor a directory:
        // its message for both is "NSCocoaErrorDomain error 256".
        var isDirectory: ObjCBool = false
        if name.isEmpty {
            throw CatalogError(line: nil, field: "file", reason: "no file named (the path is empty)")
        } else if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CatalogError(line: nil, field: "file", reason: "cannot read \(name): it is a directory, not a catalog file")
        }
        // Opened here for its errno: Foundation said "The operation could not be completed. The
        // file doesn't exist." where every other file beacontop reads says the system's words.
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CatalogFileError(path: name, reason: String(cString: strerror(errno))) }
        let data: Data
        do {
            data = try FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd() ?? Data()
        } catch {
            throw CatalogError(line: nil, field: "file", reason: "cannot read \(name): \(error.localizedDescription)")
        }
        self = try ExhibitCatalog(utf8: Array(data))
    }

    /// Parses catalog bytes, which must be UTF-8: the error names the line and byte of the first
    /// that is not (Foundation's own message, "isn't in the correct format", named neither).
    public init(utf8 bytes: [UInt8]) throws(CatalogError) {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var text = ""
        text.reserveCapacity(bytes.count)
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                text.unicodeScalars.append(scalar)
                offset += UTF8.width(scalar)
            case .emptyInput:
                break decoding
            case .error:
                let line = bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                let hex = String(bytes[offset], radix: 16, uppercase: true)
                throw CatalogError(line: line, field: "file", reason: "byte \(offset) (0x\(hex)) is not UTF-8; save the catalog as UTF-8")
            }
        }
        try self.init(yaml: text)
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
        try reader.rejectUnknownKeys(mapping, allowed: ["title", "exhibits", "regions", "walls", "rooms", "scanners", "nearestWithin"], path: "")
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
        var walls: [Wall] = []
        if let wallsNode = mapping["walls"] {
            guard let list = wallsNode.sequence else {
                throw CatalogError(line: wallsNode.mark?.line, field: "walls", reason: "must be a list of walls, each a list of [x, y] points")
            }
            walls = try list.enumerated().map { position, node throws(CatalogError) in
                try reader.wall(node, path: "walls[\(position)]")
            }
        }
        var nearestWithin: Double?
        if let node = mapping["nearestWithin"] {
            let value = try reader.number(node, path: "nearestWithin")
            guard value > 0 else { throw CatalogError(line: node.mark?.line, field: "nearestWithin", reason: "must be a distance above 0 m") }
            nearestWithin = value
        }
        let venue = try reader.venue(mapping)
        self.init(title: title, exhibits: exhibits, regions: regions, nearestWithin: nearestWithin, walls: walls, rooms: venue.rooms, scanners: venue.scanners)
    }

    /// The reader's errors (a control character, a byte order mark inside) and the composer's (an
    /// alias to no anchor) are placed and worded as the scanner's: they printed Yams' whole
    /// description, the offending line and a caret on lines of their own, escaped into one
    /// (`reader: control characters are not allowed:\u{A}    name: ...`).
    private static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        case .reader(_, let offset?, _, let yaml): 1 + yaml.prefix(offset).reduce(0) { $1.isNewline ? $0 + 1 : $0 }
        default: nil
        }
    }

    private static func problem(of error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _):
            return problem
        case .reader(let problem, _, let value, _):
            let hex = String(value, radix: 16, uppercase: true)
            return "\(problem) (U+\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex))"
        default:
            return "\(error)"
        }
    }
}
