import Foundation
import Ranging
import Survey

/// Saves the calibration wizard's result: edits the catalog file in place with
/// `CatalogCalibrationEditor.edited` (comments and order kept; the result checked to read back as
/// the same catalog with the one change, or refused), or creates it, then replaces the file
/// (written to a temporary file and renamed, so a failure never leaves half a catalog).
public enum CatalogCalibrationFile {
    /// `creating`: false for the `--exhibits` catalog the monitor runs on. Gone since it was read
    /// (moved, deleted, its stick unplugged), it was created again holding the one exhibit, and
    /// the monitor then ran on that: every other exhibit's name, position and the title lost.
    public static func save(power: Int, id: String, name: String, path: String, creating: Bool = true) throws {
        var original: [UInt8]?
        if FileManager.default.fileExists(atPath: path) {
            original = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } else if !creating {
            throw CatalogGone()
        }
        let text = try CatalogCalibrationEditor.edited(power: power, id: id, name: name, original: original)
        try WholeFileWriter.write(text, to: path)
    }

    /// Why a save failed, in words: a catalog error names its line and field, a write the system's
    /// reason ("No space left on device"); Foundation's read errors print as a dump of their user
    /// info, so theirs is the system's reason too.
    public static func describe(_ error: any Error) -> String {
        if error is CatalogError || error is CatalogGone { return "\(error)" }
        if let write = error as? FileWriteError { return write.reason }
        let cocoa = error as NSError
        if let system = cocoa.userInfo[NSUnderlyingErrorKey] as? NSError, system.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(system.code)))
        }
        return cocoa.localizedDescription
    }
}

/// The `--exhibits` catalog is no longer at its path: the save writes nothing rather than a new
/// catalog of one exhibit.
public struct CatalogGone: Error, CustomStringConvertible {
    public var description: String {
        "the catalog is no longer there (moved or deleted since the monitor read it); nothing was written. Put it back"
    }
}
