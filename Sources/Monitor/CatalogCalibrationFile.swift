import Foundation
import Ranging

/// Saves the calibration wizard's result: edits the catalog file in place with
/// `CatalogCalibrationEditor` (comments and order kept), or creates it, then checks that the
/// result still parses as a catalog before replacing the file (written to a temporary file and
/// renamed, so a failure never leaves half a catalog).
public enum CatalogCalibrationFile {
    public static func save(power: Int, id: String, name: String, path: String) throws {
        let url = URL(fileURLWithPath: path)
        let text: String
        if FileManager.default.fileExists(atPath: path) {
            let original = try String(contentsOf: url, encoding: .utf8)
            text = CatalogCalibrationEditor.setMeasuredPower(power, forID: id, name: name, in: original)
        } else {
            text = CatalogCalibrationEditor.newCatalog(power: power, id: id, name: name)
        }
        _ = try ExhibitCatalog(yaml: text)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
