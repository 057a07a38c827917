import Foundation
import Glibc
@testable import Survey
import Testing

/// The whole-or-nothing writer the calibration wizard saves a catalog with: a rename that would
/// turn a user's symbolic link into a plain file, or reset their file's permissions, loses
/// something of theirs.
@Suite struct WholeFileWriterTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("whole-file-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func mode(_ path: String) -> mode_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
    }

    @Test func aSymbolicLinkStaysALinkAndItsFileIsReplaced() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let real = directory.appendingPathComponent("shared").appendingPathComponent("hall.yaml")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "old\n".write(to: real, atomically: false, encoding: .utf8)
        let link = directory.appendingPathComponent("hall.yaml").path
        #expect(symlink("shared/hall.yaml", link) == 0)

        try WholeFileWriter.write("new\n", to: link)

        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "shared/hall.yaml", "still a link")
        #expect(try String(contentsOf: real, encoding: .utf8) == "new\n", "the linked file holds the new text")
        let left = try FileManager.default.contentsOfDirectory(atPath: real.deletingLastPathComponent().path)
        #expect(left == ["hall.yaml"], "no temporary file left: \(left)")
    }

    @Test(arguments: [0o600, 0o664, 0o640] as [mode_t])
    func anExistingFileKeepsItsPermissions(mode: mode_t) throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("hall.yaml").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(chmod(path, mode) == 0)

        try WholeFileWriter.write("new\n", to: path)

        #expect(Self.mode(path) == mode, "mode \(String(Self.mode(path), radix: 8)), was \(String(mode, radix: 8))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
    }

    @Test func aNewFileIsCreated() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("new.yaml").path
        try WholeFileWriter.write("new\n", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect(Self.mode(path) & 0o600 == 0o600)
    }
}
