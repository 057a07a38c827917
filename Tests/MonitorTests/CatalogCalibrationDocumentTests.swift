import Foundation
import Monitor
import Ranging
import Testing

/// The wizard's save on catalogs the monitor loads that it refused with "set it by hand" until
/// 25 November 2026: a whole file of JSON (pretty-printed or on one line, as scripts write them), a
/// catalog written as one YAML flow mapping, an empty list written `[ ]` or with its `[` on the line
/// below `exhibits:`, and a block list with JSON's quoted keys. Each is edited in place in the file's
/// own style, reads back through the monitor's loader, and saving again changes nothing
/// (docs/ranging.md "Calibration").
@Suite struct CatalogCalibrationDocumentTests {
    static func saves(_ steps: [(Int, String, String)], _ text: String) throws -> String {
        try CatalogCalibrationFlowTests.saves(steps, from: text)
    }

    /// Python's `json.dump(catalog, file, indent=2)`: a key added to an entry goes on a line of its
    /// own, a new exhibit is written over lines as the others are; CRLF and a byte order mark stay.
    @Test func aPrettyPrintedJSONFileIsEditedInPlace() throws {
        let json = """
            {
              "title": "Hall",
              "exhibits": [
                {
                  "id": "a",
                  "name": "A",
                  "measuredPower": -60
                },
                {
                  "id": "b",
                  "name": "B"
                }
              ]
            }

            """
        let expected = """
            {
              "title": "Hall",
              "exhibits": [
                {
                  "id": "a",
                  "name": "A",
                  "measuredPower": -61
                },
                {
                  "id": "b",
                  "measuredPower": -62,
                  "name": "B"
                },
                {
                  "id": "c",
                  "name": "C",
                  "measuredPower": -63
                }
              ]
            }

            """
        let steps = [(-61, "a", "A"), (-62, "b", "B"), (-63, "c", "C")]
        #expect(try Self.saves(steps, json) == expected)
        let crlf = json.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try Self.saves(steps, crlf) == expected.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(try Self.saves(steps, "\u{FEFF}" + json) == "\u{FEFF}" + expected)
    }

    /// Swift's JSONEncoder with `.prettyPrinted` writes `"id" : "a"` and no final line break; the id
    /// as the entry's last key takes the comma the new key needs.
    @Test func jsonEncodersPrettyPrintingIsKept() throws {
        let json = "{\n  \"exhibits\" : [\n    {\n      \"name\" : \"A\",\n      \"id\" : \"a\"\n    }\n  ]\n}"
        #expect(try Self.saves([(-61, "a", "A")], json)
            == "{\n  \"exhibits\" : [\n    {\n      \"name\" : \"A\",\n      \"id\" : \"a\",\n      \"measuredPower\" : -61\n    }\n  ]\n}")
    }

    /// JSON on one line: compact as JSONEncoder writes it, or spaced as `json.dumps` does.
    @Test func aJSONFileOnOneLineKeepsItsSpacing() throws {
        let compact = #"{"exhibits":[{"id":"a","name":"A"},{"id":"b","measuredPower":-70,"name":"B"}],"title":"Hall"}"#
        #expect(try Self.saves([(-61, "a", "A"), (-62, "b", "B"), (-63, "c", "C")], compact)
            == #"{"exhibits":[{"id":"a","measuredPower":-61,"name":"A"},{"id":"b","measuredPower":-62,"name":"B"},{"id":"c","name":"C","measuredPower":-63}],"title":"Hall"}"#)
        let spaced = #"{"exhibits": [{"id": "a", "name": "A"}]}"# + "\n"
        #expect(try Self.saves([(-59, "b", "B")], spaced)
            == #"{"exhibits": [{"id": "a", "name": "A"}, {"id": "b", "name": "B", "measuredPower": -59}]}"# + "\n")
        #expect(try Self.saves([(-59, "b", "B")], #"{"exhibits": []}"#) == #"{"exhibits": [{"id": "b", "name": "B", "measuredPower": -59}]}"#)
    }

    /// A whole catalog as one YAML flow mapping, after a comment and a document marker, over two
    /// lines; an empty list in one gets its first item inside the brackets.
    @Test func aCatalogWrittenAsOneFlowMappingIsEditedInPlace() throws {
        let flow = """
            # The hall, one flow mapping
            --- {title: Hall, exhibits: [{id: a, name: A}, {id: b, name: B, measuredPower: -70}],
                 nearestWithin: 6}

            """
        #expect(try Self.saves([(-61, "a", "A"), (-62, "b", "B"), (-63, "c", "C")], flow) == """
            # The hall, one flow mapping
            --- {title: Hall, exhibits: [{id: a, measuredPower: -61, name: A}, {id: b, name: B, measuredPower: -62}, {id: "c", name: "C", measuredPower: -63}],
                 nearestWithin: 6}

            """)
        #expect(try Self.saves([(-61, "a", "A")], "{exhibits: [ ]}\n") == "{exhibits: [{id: \"a\", name: \"A\", measuredPower: -61}]}\n")
    }

    /// What stays refused in such a document, naming the layout and what to set by hand: a list
    /// behind an anchor (the editor does not look past `&all`); the file is left as it was.
    @Test func aListBehindAnAnchorIsRefused() throws {
        let anchored = "{exhibits: &all [{id: a, name: A}]}\n"
        let error = try #require(throws: CatalogError.self) { try CatalogCalibrationFlowTests.edited(-61, "a", in: anchored) }
        #expect("\(error)" == "catalog exhibits[0].measuredPower: not saved: the wizard edits the file in place and cannot follow its layout there (anchors and aliases, or a value over several lines); set it to -61 by hand")
        let new = try #require(throws: CatalogError.self) { try CatalogCalibrationFlowTests.edited(-61, "b", in: anchored) }
        #expect(new.field == "exhibits" && new.reason.hasSuffix("add `- id: \"b\"` with `measuredPower: -61` at the end of the list by hand"), "\(new)")
    }

    /// `exhibits: [ ]` on the key's line is the placeholder `exhibits: []` is: it becomes a block
    /// list (the key's quotes and a trailing comment stay). A list whose `[` is on a later line is
    /// edited inside its brackets.
    @Test func anEmptyListWithASpaceOrOnTheNextLineTakesTheEntry() throws {
        let block = "exhibits:\n  - id: \"a\"\n    name: \"A\"\n    measuredPower: -61\n"
        #expect(try Self.saves([(-61, "a", "A")], "exhibits: [ ]\n") == block)
        #expect(try Self.saves([(-61, "a", "A")], "\"exhibits\": [ ]   # none yet\n")
            == "\"exhibits\":   # none yet\n  - \"id\": \"a\"\n    \"name\": \"A\"\n    \"measuredPower\": -61\n")
        #expect(try Self.saves([(-61, "a", "A")], "exhibits:\n  [ ]\n") == "exhibits:\n  [{id: \"a\", name: \"A\", measuredPower: -61}]\n")
        let list = """
            exhibits:   # one a line
              [
                {id: a, name: A},
                {id: b, name: B}
              ]

            """
        #expect(try Self.saves([(-61, "a", "A"), (-63, "c", "C")], list) == """
            exhibits:   # one a line
              [
                {id: a, measuredPower: -61, name: A},
                {id: b, name: B},
                {id: "c", name: "C", measuredPower: -63}
              ]

            """)
    }

    /// A block list written with JSON's quoted keys (`- "id": "a"`, or one `- {"id": "a"}` a line):
    /// the added `measuredPower` key and a new entry's keys are quoted as the list's are.
    @Test func aBlockListWithQuotedKeysGetsQuotedKeys() throws {
        let block = "\"exhibits\":\n  - \"id\": \"a\"\n    \"name\": \"A\"\n"
        #expect(try Self.saves([(-61, "a", "A"), (-62, "b", "B")], block) == """
            "exhibits":
              - "id": "a"
                "measuredPower": -61
                "name": "A"
              - "id": "b"
                "name": "B"
                "measuredPower": -62

            """)
        let flowLines = "exhibits:\n  - {'id': 'a', 'name': 'A'}\n"
        #expect(try Self.saves([(-62, "b", "B")], flowLines)
            == "exhibits:\n  - {'id': 'a', 'name': 'A'}\n  - {'id': \"b\", 'name': \"B\", 'measuredPower': -62}\n")
    }
}
