import BeaconFormats
import Yams

/// Reads typed fields out of YAML nodes for `ExhibitCatalog`, turning every mismatch into a
/// `CatalogError` with the node's line and the field path.
struct CatalogNodeReader {
    func fail(_ node: Node?, _ path: String, _ reason: String) -> CatalogError {
        CatalogError(line: node?.mark?.line, field: path, reason: reason)
    }

    func rejectUnknownKeys(_ mapping: Node.Mapping, allowed: Set<String>, path: String) throws(CatalogError) {
        for (key, _) in mapping {
            let name = key.string ?? "?"
            if !allowed.contains(name) {
                let field = path.isEmpty ? name : "\(path).\(name)"
                throw fail(key, field, "unknown key; expected one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
    }

    func string(_ node: Node, path: String) throws(CatalogError) -> String {
        guard let scalar = node.scalar else { throw fail(node, path, "must be text") }
        return scalar.string
    }

    func number(_ node: Node, path: String) throws(CatalogError) -> Double {
        guard let value = node.float ?? node.int.map(Double.init), value.isFinite else {
            throw fail(node, path, "must be a number, got \"\(node.scalar?.string ?? "a list or mapping")\"")
        }
        return value
    }

    func uint16(_ node: Node, path: String) throws(CatalogError) -> UInt16 {
        guard let value = node.int, let narrow = UInt16(exactly: value) else {
            throw fail(node, path, "must be a whole number from 0 to 65535")
        }
        return narrow
    }

    func exhibit(_ node: Node, path: String) throws(CatalogError) -> Exhibit {
        guard let mapping = node.mapping else { throw fail(node, path, "must be a mapping with at least `id`") }
        try rejectUnknownKeys(mapping, allowed: [
            "id", "name", "description", "position", "measuredPower", "pathLossExponent", "advertisingIntervalMs", "lowBatteryMillivolts",
        ], path: path)
        guard let idNode = mapping["id"] else { throw fail(node, "\(path).id", "missing") }
        let id = try string(idNode, path: "\(path).id")
        guard !id.isEmpty else { throw fail(idNode, "\(path).id", "must not be empty") }
        let name = try mapping["name"].map { n throws(CatalogError) in try string(n, path: "\(path).name") } ?? id
        let description = try mapping["description"].map { n throws(CatalogError) in try string(n, path: "\(path).description") }
        let position = try mapping["position"].map { n throws(CatalogError) in try point(n, path: "\(path).position") }
        var measuredPower: Double?
        if let powerNode = mapping["measuredPower"] {
            let value = try number(powerNode, path: "\(path).measuredPower")
            guard value < 0, value >= -127 else {
                throw fail(powerNode, "\(path).measuredPower", "\(value) dBm is not a received power at 1 m; expected -127 to -1")
            }
            measuredPower = value
        }
        var exponent: Double?
        if let exponentNode = mapping["pathLossExponent"] {
            let value = try number(exponentNode, path: "\(path).pathLossExponent")
            guard value > 0, value <= 10 else {
                throw fail(exponentNode, "\(path).pathLossExponent", "must be above 0 and at most 10 (typically 1.6 to 4)")
            }
            exponent = value
        }
        var interval: Double?
        if let intervalNode = mapping["advertisingIntervalMs"] {
            let value = try number(intervalNode, path: "\(path).advertisingIntervalMs")
            // Core 5.4 Vol 4 Part E 7.8.5 and 7.8.53: 20 ms (legacy and extended) up to 0xFFFFFF units
            // of 0.625 ms (extended advertising, about 2.9 hours).
            guard value >= 20, value <= 10_485_759.375 else {
                throw fail(intervalNode, "\(path).advertisingIntervalMs", "\(value) ms is outside the 20 ms to 2.9 h Bluetooth allows")
            }
            interval = value / 1000
        }
        var lowBattery: Int?
        if let batteryNode = mapping["lowBatteryMillivolts"] {
            guard let value = batteryNode.int, value > 0, value <= 10_000 else {
                throw fail(batteryNode, "\(path).lowBatteryMillivolts", "must be a whole number of millivolts from 1 to 10000")
            }
            lowBattery = value
        }
        return Exhibit(
            id: id, name: name, description: description, position: position, measuredPower: measuredPower, pathLossExponent: exponent,
            advertisingInterval: interval, lowBatteryMillivolts: lowBattery
        )
    }

    /// `[x, y]` in metres.
    func point(_ node: Node, path: String) throws(CatalogError) -> FloorPosition {
        guard let pair = node.sequence, pair.count == 2 else {
            throw fail(node, path, "must be [x, y] in metres")
        }
        var coordinates: [Double] = []
        for (index, node) in pair.enumerated() {
            let value = try number(node, path: "\(path)[\(index)]")
            if let problem = FloorPosition.refusal(value) { throw fail(node, "\(path)[\(index)]", problem) }
            coordinates.append(value)
        }
        return FloorPosition(x: coordinates[0], y: coordinates[1])
    }

    /// A list of at least two `[x, y]` points: a wall drawn through them in order.
    func wall(_ node: Node, path: String) throws(CatalogError) -> Wall {
        guard let list = node.sequence, list.count >= 2 else {
            throw fail(node, path, "must be a list of at least two [x, y] points, e.g. [[0, 0], [12, 0]]")
        }
        return Wall(points: try list.enumerated().map { position, point throws(CatalogError) in
            try self.point(point, path: "\(path)[\(position)]")
        })
    }

    func region(_ node: Node, path: String) throws(CatalogError) -> BeaconRegion {
        guard let mapping = node.mapping else { throw fail(node, path, "must be a mapping with at least `uuid`") }
        try rejectUnknownKeys(mapping, allowed: ["name", "uuid", "major", "minor"], path: path)
        guard let uuidNode = mapping["uuid"] else { throw fail(node, "\(path).uuid", "missing") }
        let text = try string(uuidNode, path: "\(path).uuid")
        guard let uuid = UUIDBytes(text) else {
            throw fail(uuidNode, "\(path).uuid", "\"\(text)\" is not a UUID (32 hex digits, dashes optional)")
        }
        let name = try mapping["name"].map { n throws(CatalogError) in try string(n, path: "\(path).name") }
        let major = try mapping["major"].map { n throws(CatalogError) in try uint16(n, path: "\(path).major") }
        let minor = try mapping["minor"].map { n throws(CatalogError) in try uint16(n, path: "\(path).minor") }
        if minor != nil, major == nil {
            throw fail(mapping["minor"], "\(path).minor", "needs a major, as CoreLocation regions do")
        }
        return BeaconRegion(name: name, uuid: uuid, major: major, minor: minor)
    }
}
