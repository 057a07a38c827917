import Yams

extension CatalogNodeReader {
    func room(_ node: Node, path: String) throws(CatalogError) -> VenueRoom {
        guard let mapping = node.mapping else { throw fail(node, path, "must be a mapping with at least `id`") }
        try rejectUnknownKeys(mapping, allowed: ["id", "name"], path: path)
        let id = try nonEmptyID(mapping, node: node, path: path)
        let name = try mapping["name"].map { n throws(CatalogError) in try string(n, path: "\(path).name") }
        return VenueRoom(id: id, name: name)
    }

    func scanner(_ node: Node, path: String) throws(CatalogError) -> VenueScanner {
        guard let mapping = node.mapping else { throw fail(node, path, "must be a mapping with at least `id` and `room`") }
        try rejectUnknownKeys(mapping, allowed: ["id", "room", "position", "rssiOffset", "referenceBeacon"], path: path)
        let id = try nonEmptyID(mapping, node: node, path: path)
        // A view knows a scanner by its topic level, where these cannot be: an agent given
        // `--scanner pi/1` publishes as `pi_1`, so an entry `pi/1` was never heard and its beacons
        // landed in a room `pi_1` of their own instead of the entry's room.
        if Self.topicLevel(id) != id {
            throw fail(mapping["id"] ?? node, "\(path).id",
                       "\(id) cannot be a scanner's name: '/', '+' and '#' cannot be in an MQTT topic level (an agent given --scanner \(id) publishes as \(Self.topicLevel(id))); name it \(Self.topicLevel(id))")
        }
        guard let roomNode = mapping["room"] else { throw fail(node, "\(path).room", "missing (the room this scanner covers)") }
        let room = try string(roomNode, path: "\(path).room")
        let position = try mapping["position"].map { node throws(CatalogError) in try point(node, path: "\(path).position") }
        var offset: Double?
        if let offsetNode = mapping["rssiOffset"] {
            let value = try number(offsetNode, path: "\(path).rssiOffset")
            guard abs(value) <= 40 else { throw fail(offsetNode, "\(path).rssiOffset", "\(value) dB is not a receiver difference; expected -40 to 40") }
            offset = value
        }
        let reference = try mapping["referenceBeacon"].map { n throws(CatalogError) in try string(n, path: "\(path).referenceBeacon") }
        return VenueScanner(id: id, room: room, position: position, rssiOffset: offset, referenceBeacon: reference)
    }

    /// `id` as one MQTT topic level, as `VenueTopics.level` makes it (control characters are
    /// refused before this): `/`, `+` and `#` become `_`.
    static func topicLevel(_ id: String) -> String {
        String(String.UnicodeScalarView(id.unicodeScalars.map { "/+#".unicodeScalars.contains($0) ? "_" : $0 }))
    }

    private func nonEmptyID(_ mapping: Node.Mapping, node: Node, path: String) throws(CatalogError) -> String {
        guard let idNode = mapping["id"] else { throw fail(node, "\(path).id", "missing") }
        let id = try string(idNode, path: "\(path).id")
        guard !id.isEmpty else { throw fail(idNode, "\(path).id", "must not be empty") }
        guard !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw fail(idNode, "\(path).id", "must not hold control characters")
        }
        return id
    }

    /// Reads the `rooms` and `scanners` lists: ids unique, every scanner's room listed (when
    /// rooms are), reference beacons unique.
    func venue(_ mapping: Node.Mapping) throws(CatalogError) -> (rooms: [VenueRoom], scanners: [VenueScanner]) {
        var rooms: [VenueRoom] = []
        if let node = mapping["rooms"] {
            guard let list = node.sequence else { throw fail(node, "rooms", "must be a list") }
            var seen: [String: Int] = [:]
            var levels: [String: Int] = [:]
            for (position, item) in list.enumerated() {
                let room = try room(item, path: "rooms[\(position)]")
                if let first = seen[room.id] { throw fail(item, "rooms[\(position)].id", "\(room.id) is already rooms[\(first)]") }
                // Two rooms published on one topic: each room's retained occupancy replaced the other's.
                let level = Self.topicLevel(room.id)
                if let first = levels[level] {
                    throw fail(item, "rooms[\(position)].id", "\(room.id) and rooms[\(first)]'s \(rooms[first].id) are both \(level) in MQTT topics (beacontop/occupancy/\(level)): '/', '+' and '#' become '_' there; rename one")
                }
                seen[room.id] = position
                levels[level] = position
                rooms.append(room)
            }
        }
        var scanners: [VenueScanner] = []
        if let node = mapping["scanners"] {
            guard let list = node.sequence else { throw fail(node, "scanners", "must be a list") }
            var seen: [String: Int] = [:]
            var references: [String: Int] = [:]
            let roomIDs = Set(rooms.map(\.id))
            for (position, item) in list.enumerated() {
                let scanner = try scanner(item, path: "scanners[\(position)]")
                if let first = seen[scanner.id] { throw fail(item, "scanners[\(position)].id", "\(scanner.id) is already scanners[\(first)]") }
                if !rooms.isEmpty, !roomIDs.contains(scanner.room) {
                    throw fail(item, "scanners[\(position)].room", "\(scanner.room) is not in rooms (\(rooms.map(\.id).joined(separator: ", ")))")
                }
                if let reference = scanner.referenceBeacon {
                    if let first = references[reference] {
                        throw fail(item, "scanners[\(position)].referenceBeacon", "\(reference) is already scanners[\(first)]'s; a reference beacon sits by one scanner")
                    }
                    references[reference] = position
                }
                seen[scanner.id] = position
                scanners.append(scanner)
            }
        }
        return (rooms, scanners)
    }
}
