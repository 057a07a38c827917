import Ranging

/// The calibration wizard's save (`c`, Enter) on a catalog file a person wrote: the input is four
/// bytes choosing two calibrations, then the file's bytes. Each calibration is a beacon and a
/// measured power: byte 0 (and 2) picks `exhibits[b % count]` of the file when its top bit is clear
/// (the wizard passes the beacon's identity, so the id goes in as the catalog normalised it, or
/// lower-cased when bit 6 is set), a beacon not in the file from `newBeacons` when the top bit is
/// set, and 0xFF at byte 2 means one calibration only; byte 1 (and 3) is the power, `-(b % 129)` dBm, so 0
/// and -128, which no catalog takes, come up too.
///
/// What must hold, in memory exactly as `CatalogCalibrationFile.save` writes (`CatalogCalibrationEditor.edited`):
/// a file that does not load as a catalog is refused, never written over; one that does is either
/// refused with a `CatalogError` (nothing written), or edited into text that
/// loads as the same catalog with only that exhibit's `measuredPower` set (or one entry added at
/// the end), and that editing again with the same value leaves unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalogEditor(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 4 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    var file = Array(input[4...])
    guard let original = try? ExhibitCatalog(utf8: file) else {
        if let text = try? CatalogCalibrationEditor.edited(power: -59, id: newBeacons[0].id, name: "x", original: file) {
            fatalError("a file that does not load as a catalog was edited into:\n\(text)")
        }
        return 0
    }
    var catalog = original
    var calibrations = [(input[0], input[1])]
    if input[2] != 0xFF { calibrations.append((input[2], input[3])) }
    for (choice, powerByte) in calibrations {
        let power = -Int(powerByte % 129)
        let (id, name) = beacon(choice, in: catalog)
        let text: String
        do {
            text = try CatalogCalibrationEditor.edited(power: power, id: id, name: name, original: file)
        } catch {
            // A typed throw: the refusal is a CatalogError, which names the field and what to do.
            require(!error.field.isEmpty && !error.reason.isEmpty, "a refusal without words: \(error)")
            return 0
        }
        require((-127 ... -1).contains(power), "measuredPower \(power) was written:\n\(text)")
        let edited: ExhibitCatalog
        do {
            edited = try ExhibitCatalog(utf8: Array(text.utf8))
        } catch {
            fatalError("the edited catalog does not load (\(error)):\n\(text)")
        }
        check(edited, isCatalog: catalog, with: power, forID: id, name: name, text: text)
        let again = try? CatalogCalibrationEditor.edited(power: power, id: id, name: name, original: Array(text.utf8))
        require(again == text, "saving the same calibration again changed the file:\n\(text)\n---\n\(again ?? "(refused)")")
        file = Array(text.utf8)
        catalog = edited
    }
    return 0
}

/// Beacons a wizard may calibrate that a fuzzed file is unlikely to hold, with names from the plain
/// to what YAML must escape (the wizard names a new entry after the beacon; the editor quotes it).
let newBeacons: [(id: String, name: String)] = [
    ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", "E2C56DB5:100:1"),
    ("edd1ebeac04e5defa017:0badc0ffee01", "Eddystone"),
    ("8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:1", "New \"one\" \\ back"),
    ("11111111-2222-3333-4444-555555555555:0:65535", "two\nlines\r\nand\ttab"),
    ("edd1ebeac04e5defa017:000000000001", "\u{1B}[2J\u{7} \u{85}\u{2028}\u{2029}\u{FEFF}\u{0}"),
    ("22222222-2222-2222-2222-222222222222:7:7", " lead: colon # hash - dash "),
    ("33333333-3333-3333-3333-333333333333:1:2", "é日本🙂 e\u{301}"),
    ("44444444-4444-4444-4444-444444444444:9:9", ""),
]

func beacon(_ choice: UInt8, in catalog: ExhibitCatalog) -> (id: String, name: String) {
    if choice & 0x80 == 0, !catalog.exhibits.isEmpty {
        let exhibit = catalog.exhibits[Int(choice) % catalog.exhibits.count]
        return (choice & 0x40 == 0 ? exhibit.id : exhibit.id.lowercased(), exhibit.name)
    }
    return newBeacons[Int(choice) % newBeacons.count]
}

/// The edited catalog holds what the file held, field by field, with the one change.
func check(_ edited: ExhibitCatalog, isCatalog before: ExhibitCatalog, with power: Int, forID id: String, name: String, text: String) {
    var exhibits = before.exhibits
    let wanted = Exhibit.normalisedID(id)
    if let index = exhibits.firstIndex(where: { $0.id == wanted }) {
        exhibits[index].measuredPower = Double(power)
    } else {
        exhibits.append(Exhibit(id: id, name: name, measuredPower: Double(power)))
    }
    for (index, (got, want)) in zip(edited.exhibits, exhibits).enumerated() {
        require(got == want, "exhibits[\(index)] reads back as \(got), not \(want):\n\(text)")
    }
    require(edited.exhibits.count == exhibits.count, "\(edited.exhibits.count) exhibits read back, not \(exhibits.count):\n\(text)")
    require(edited.title == before.title, "the title reads back as \(String(describing: edited.title)):\n\(text)")
    require(edited.nearestWithin == before.nearestWithin, "nearestWithin changed:\n\(text)")
    require(edited.walls == before.walls, "the walls changed:\n\(text)")
    require(edited.rooms == before.rooms, "the rooms changed:\n\(text)")
    require(edited.scanners == before.scanners, "the scanners changed:\n\(text)")
    // Without a `regions` key each exhibit is its own region, so a new entry may add one.
    require(edited.regions == before.regions || edited.regions == exhibits.compactMap(\.region), "the regions changed:\n\(text)")
}

/// A property that must hold; its message names what broke (a release build drops precondition's).
func require(_ holds: Bool, _ message: @autoclosure () -> String) {
    if !holds { fatalError(message()) }
}
