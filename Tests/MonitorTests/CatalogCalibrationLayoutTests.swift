import Foundation
import Monitor
import Ranging
import TestFixtures
import Testing

/// The wizard's save on catalogs laid out in ways YAML allows and a line editor may not follow
/// (found by fuzz-catalog-editor, docs/fuzzing.md): each is edited in place or refused with what to
/// set by hand, never saved as a different catalog.
@Suite struct CatalogCalibrationLayoutTests {
    static let museum = CatalogCalibrationEditorTests.museum
    static let second = CatalogCalibrationEditorTests.second

    static func edited(_ power: Int, _ id: String, name: String = "x", in text: String) throws(CatalogError) -> String {
        try CatalogCalibrationEditor.edited(power: power, id: id, name: name, original: Array(text.utf8))
    }

    /// fuzz-catalog-editor's first seed run: an `exhibits:` list in flow style was replaced by
    /// `exhibits:` and the new entry, and the file saved with its exhibits gone. Such a list is now
    /// edited in place (CatalogCalibrationFlowTests), and since 25 November 2026 so is a whole
    /// catalog written as one flow mapping, JSON's shape (CatalogCalibrationDocumentTests), which
    /// was refused with "set it by hand" until then.
    @Test func aWholeCatalogInFlowStyleIsEditedNotEmptied() throws {
        let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4"
        let flow = "{exhibits: [{id: \"\(uuid):1:1\", name: A, measuredPower: -60}, {id: b, name: B}]}\n"
        #expect(try Self.edited(-61, "b", in: flow) == "{exhibits: [{id: \"\(uuid):1:1\", name: A, measuredPower: -60}, {id: b, measuredPower: -61, name: B}]}\n")
        #expect(try Self.edited(-61, "\(uuid):9:9", name: "N", in: flow)
            == "{exhibits: [{id: \"\(uuid):1:1\", name: A, measuredPower: -60}, {id: b, name: B}, {id: \"\(uuid):9:9\", name: \"N\", measuredPower: -61}]}\n")
    }

    /// fuzz-catalog-editor, after 90 s: a new entry's name with a line break was written inside
    /// double quotes as it was, and read back with the break folded into a space.
    @Test func aNewEntrysNameReadsBackAsGiven() throws {
        let name = "Row\r\nbreak\ttab \u{1B}[2J\u{7} \u{85}\u{2028}\u{2029}\u{FEFF} \"quoted\" \\ é日本🙂"
        let text = try Self.edited(-59, "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", name: name, in: Self.museum)
        #expect(try ExhibitCatalog(yaml: text).exhibits.last?.name == name)
        #expect(try ExhibitCatalog(yaml: CatalogCalibrationEditor.newCatalog(power: -59, id: "a", name: name)).exhibits.first?.name == name)
    }

    /// A CRLF file was one `Character` line to the editor (CR LF is one grapheme): the edit was
    /// refused as a duplicate `exhibits` key. Now it is edited in place and keeps its line ends,
    /// and a byte order mark stays in front.
    @Test func aCRLFFileAndOneWithAByteOrderMarkAreEditedInPlace() throws {
        let lf = try Self.edited(-67, Self.second, in: Self.museum)
        let crlf = Self.museum.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Self.edited(-67, Self.second, in: crlf) == lf.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try Self.edited(-67, Self.second, in: "\u{FEFF}" + Self.museum) == "\u{FEFF}" + lf)
        let added = try Self.edited(-55, "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", in: crlf)
        #expect(added == (try Self.edited(-55, "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1", in: Self.museum)).replacingOccurrences(of: "\n", with: "\r\n"))
    }

    /// Quoted keys and an entry whose keys start on the line below its dash were not found: the
    /// save added a second entry with the same id and was refused.
    @Test func quotedKeysAndABareDashAreFound() throws {
        let text = """
            exhibits:
              - "id": a
                'measuredPower': -60   # guessed
              -
                id: b
                name: B

            """
        let edited = try Self.edited(-71, "a", in: try Self.edited(-58, "b", in: text))
        #expect(edited == """
            exhibits:
              - "id": a
                'measuredPower': -71   # guessed
              -
                id: b
                measuredPower: -58
                name: B

            """)
    }

    /// fuzz-catalog-editor, after 17,637 executions: an entry the editor had added for an id with a
    /// line break (written `"a\nb"`) was not found by the next save of the same calibration, which
    /// added it again and was refused: ids were compared as written, escapes and all. Now they are
    /// compared as YAML reads them, so escaped and single-quoted ids are edited in place.
    @Test func escapedAndQuotedIdsAreFound() throws {
        let text = """
            exhibits:
              - id: "tab\\tand \\u00e9"
                name: A
              - id: 'it''s'   # quoted
                measuredPower: -60

            """
        let edited = try Self.edited(-58, "it's", in: try Self.edited(-71, "tab\tand é", in: text))
        #expect(edited == """
            exhibits:
              - id: "tab\\tand \\u00e9"
                measuredPower: -71
                name: A
              - id: 'it''s'   # quoted
                measuredPower: -58

            """)
        let added = try Self.edited(-70, "new\nline", in: text)
        #expect(try Self.edited(-70, "new\nline", in: added) == added)
    }

    /// `CatalogCalibrationFile.save` writes exactly what `CatalogCalibrationEditor.edited` returns
    /// for the file's bytes, and when that refuses, the file stays as it was and the error is the same.
    @Test func theSaveWritesWhatTheEditorReturns() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("calibration-save-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notUTF8 = Array("exhibits:\n  - id: a\n    name: caf".utf8) + [0xE9] + Array("\n".utf8)
        let cases: [(String, [UInt8]?)] = [
            ("museum.yaml", Array(Self.museum.utf8)), ("crlf.yaml", Array(Self.museum.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("new.yaml", nil), ("flow.yaml", Array("exhibits: [{id: a}]\n".utf8)), ("latin1.yaml", notUTF8),
        ]
        for (file, original) in cases {
            let path = directory.appendingPathComponent(file).path
            if let original { try Data(original).write(to: URL(fileURLWithPath: path)) }
            let expected = Result { () throws(CatalogError) in try CatalogCalibrationEditor.edited(power: -62, id: "a", name: "A", original: original) }
            do {
                try CatalogCalibrationFile.save(power: -62, id: "a", name: "A", path: path)
                #expect(try String(contentsOfFile: path, encoding: .utf8) == expected.get(), "\(file)")
            } catch {
                #expect(CatalogCalibrationFile.describe(error) == "\(try #require(expected.failure))", "\(file)")
                #expect(FileManager.default.contents(atPath: path).map(Array.init) == original, "\(file) changed")
            }
        }
        let latin1 = directory.appendingPathComponent("latin1.yaml").path
        #expect(throws: CatalogError(line: 3, field: "file", reason: "byte 33 (0xE9) is not UTF-8; save the catalog as UTF-8")) {
            try CatalogCalibrationFile.save(power: -62, id: "a", name: "A", path: latin1)
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
