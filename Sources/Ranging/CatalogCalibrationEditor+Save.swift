import Foundation

extension CatalogCalibrationEditor {
    /// What the wizard's save writes, in memory (`CatalogCalibrationFile.save` reads the file, calls
    /// this and writes the result back whole): the catalog file's bytes (nil: no file yet) with
    /// `measuredPower` set for `id`. Throws, and nothing is written, when the file does not load as
    /// a catalog (its own `CatalogError`), when `power` is no measured power, or when the line edit
    /// would make the file read back as anything but the same catalog with that one change: a
    /// layout the editor does not follow (anchors and aliases, multi-line values; fuzz-catalog-editor)
    /// is refused with what to set by hand rather than saved wrong.
    public static func edited(power: Int, id: String, name: String, original: [UInt8]?) throws(CatalogError) -> String {
        guard (-127 ... -1).contains(power) else {
            throw CatalogError(line: nil, field: "measuredPower", reason: "\(power) dBm is not a received power at 1 m; expected -127 to -1")
        }
        guard let original else {
            let text = newCatalog(power: power, id: id, name: name)
            _ = try ExhibitCatalog(yaml: text)
            return text
        }
        let before = try ExhibitCatalog(utf8: original)
        let text = setMeasuredPower(power, forID: id, name: name, in: String(decoding: original, as: UTF8.self))
        let index = before.index(ofID: Exhibit.normalisedID(id))
        let field = index.map { "exhibits[\($0)].measuredPower" } ?? "exhibits"
        let byHand = index == nil
            ? "add `- id: \(quoted(id))` with `measuredPower: \(power)` at the end of the list by hand"
            : "set it to \(power) by hand"
        guard let after = try? ExhibitCatalog(yaml: text), intended(before, power: power, id: id, name: name).contains(after) else {
            throw CatalogError(
                line: nil, field: field,
                reason: "not saved: the wizard edits the file in place and cannot follow its layout there (anchors and aliases, or a value over several lines); \(byHand)"
            )
        }
        return text
    }

    /// The catalogs the edited file may read back as: `before` with the one measured power set, or
    /// a new entry at the end. Without a `regions` key each exhibit is its own region, so a new
    /// entry may add one; with the key the regions stay.
    static func intended(_ before: ExhibitCatalog, power: Int, id: String, name: String) -> [ExhibitCatalog] {
        var exhibits = before.exhibits
        if let index = before.index(ofID: Exhibit.normalisedID(id)) {
            exhibits[index].measuredPower = Double(power)
        } else {
            exhibits.append(Exhibit(id: id, name: name, measuredPower: Double(power)))
        }
        let catalog = { (regions: [BeaconRegion]?) in
            ExhibitCatalog(
                title: before.title, exhibits: exhibits, regions: regions, nearestWithin: before.nearestWithin,
                walls: before.walls, rooms: before.rooms, scanners: before.scanners
            )
        }
        let regionsMayBeDerived = before.regions == before.exhibits.compactMap(\.region)
        return [catalog(before.regions)] + (regionsMayBeDerived ? [catalog(nil)] : [])
    }
}
