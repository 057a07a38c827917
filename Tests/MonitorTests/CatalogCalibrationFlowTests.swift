import Monitor
import Ranging
import Testing

/// The wizard's save on catalogs written in flow style, as short hand-written catalogs often are (one
/// exhibit a line): the entry's mapping is edited in place, a new exhibit is added in the list's own
/// style, and saving the same calibration again changes nothing. Before, each of these was refused
/// with "set it by hand" (docs/ranging.md "Calibration").
@Suite struct CatalogCalibrationFlowTests {
    static func edited(_ power: Int, _ id: String, name: String = "x", in text: String) throws(CatalogError) -> String {
        try CatalogCalibrationEditor.edited(power: power, id: id, name: name, original: Array(text.utf8))
    }

    /// Each save, then the same save on its result: the second must leave the text as it is, and
    /// the monitor's loader must read the exhibit back with its new measured power.
    static func saves(_ steps: [(Int, String, String)], from text: String) throws -> String {
        var text = text
        for (power, id, name) in steps {
            text = try edited(power, id, name: name, in: text)
            #expect(try edited(power, id, name: name, in: text) == text, "saving \(id) again changed the file")
            #expect(try ExhibitCatalog(utf8: Array(text.utf8)).exhibit(forID: id)?.measuredPower == Double(power), "\(text)")
        }
        return text
    }

    @Test func aFlowListOnOneLineIsEditedInPlace() throws {
        let uuid = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4"
        let flow = "exhibits: [{id: \"\(uuid):1:1\", name: A, measuredPower: -60}, {id: b, name: B}]   # two\n"
        let text = try Self.saves([(-61, "b", "B"), (-58, "\(uuid):1:1", "A"), (-59, "\(uuid):9:9", "New")], from: flow)
        #expect(text == """
            exhibits: [{id: "\(uuid):1:1", name: A, measuredPower: -58}, {id: b, measuredPower: -61, name: B}, \
            {id: "\(uuid):9:9", name: "New", measuredPower: -59}]   # two

            """)
    }

    @Test func aBlockListOfFlowMappingsIsEditedInPlace() throws {
        let catalog = """
            # A short catalog: one exhibit a line.
            exhibits:
              - {id: a, name: "Door, east {main}", measuredPower: -60}   # checked
              - {id: b, name: Bob's desk}
              - {id: c,
                 name: 'It''s, here'}

            """
        let text = try Self.saves([(-62, "a", "A"), (-63, "b", "B"), (-64, "c", "C"), (-65, "d", "D")], from: catalog)
        #expect(text == """
            # A short catalog: one exhibit a line.
            exhibits:
              - {id: a, name: "Door, east {main}", measuredPower: -62}   # checked
              - {id: b, measuredPower: -63, name: Bob's desk}
              - {id: c, measuredPower: -64,
                 name: 'It''s, here'}
              - {id: "d", name: "D", measuredPower: -65}

            """)
    }

    /// A list over several lines gets its new exhibit on a line of its own, indented as the others,
    /// after the last one's comment; a trailing comma stays single; CRLF stays CRLF.
    @Test func aFlowListOverSeveralLinesGetsANewLine() throws {
        let catalog = """
            exhibits: [
              {id: a, name: A},   # entrance
              {id: b, name: B}    # last
            ]

            """
        let expected = """
            exhibits: [
              {id: a, name: A},   # entrance
              {id: b, name: B},    # last
              {id: "c", name: "C", measuredPower: -59}
            ]

            """
        #expect(try Self.saves([(-59, "c", "C")], from: catalog) == expected)
        let crlf = try Self.saves([(-59, "c", "C")], from: catalog.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(crlf == expected.replacingOccurrences(of: "\n", with: "\r\n"))
        let trailingComma = catalog.replacingOccurrences(of: "B}    #", with: "B},   #")
        #expect(try Self.saves([(-59, "c", "C")], from: trailingComma) == expected.replacingOccurrences(of: "B},    #", with: "B},   #"))
    }

    /// JSON is flow style too: a key added to a mapping whose keys are quoted is quoted.
    @Test func jsonStyleEntriesKeepTheirQuotedKeys() throws {
        let block = "exhibits:\n  - {\"id\": \"a\", \"name\": \"A\"}\n"
        #expect(try Self.saves([(-61, "a", "A")], from: block) == "exhibits:\n  - {\"id\": \"a\", \"measuredPower\": -61, \"name\": \"A\"}\n")
        let list = "exhibits: [{\"id\":\"a\"}]\n"
        #expect(try Self.saves([(-61, "a", "A"), (-59, "b", "B")], from: list)
            == "exhibits: [{\"id\":\"a\",\"measuredPower\":-61},{\"id\":\"b\",\"name\":\"B\",\"measuredPower\":-59}]\n")
    }

    /// A bare `-` ending the file with no line break: the flow editor looked for a `{` one past the
    /// text's end (a trap); the line editor then adds the entry under it, and the save refuses the
    /// file, which does not load.
    @Test func aBareDashEndingTheFileIsNoFlowEntry() throws {
        let text = CatalogCalibrationEditor.setMeasuredPower(-61, forID: "b", name: "B", in: "exhibits:\n  - {id: a}\n  -")
        #expect(text == "exhibits:\n  - {id: a}\n  -\n  - id: \"b\"\n    name: \"B\"\n    measuredPower: -61")
        #expect(throws: CatalogError.self) { try Self.edited(-61, "b", in: "exhibits:\n  - {id: a}\n  -") }
    }

    /// What stays refused, with the layouts the message names: an anchored value another entry
    /// aliases (editing it would change both, or leave the alias dangling) and a value continued on
    /// the next line. The alias's own entry is edited: only its value changes.
    @Test func anAliasedAnchorAndAContinuedValueAreRefused() throws {
        let catalog = "exhibits:\n  - {id: a, measuredPower: &p -60}\n  - {id: b, measuredPower: *p}\n"
        let refused = try #require(throws: CatalogError.self) { try Self.edited(-61, "a", in: catalog) }
        #expect("\(refused)" == "catalog exhibits[0].measuredPower: not saved: the wizard edits the file in place and cannot follow its layout there (anchors and aliases, or a value over several lines); set it to -61 by hand")
        #expect(try Self.edited(-61, "b", in: catalog) == "exhibits:\n  - {id: a, measuredPower: &p -60}\n  - {id: b, measuredPower: -61}\n")
        let continued = "exhibits:\n  - id: a\n    measuredPower:\n      -60\n"
        let error = try #require(throws: CatalogError.self) { try Self.edited(-61, "a", in: continued) }
        #expect(error.field == "exhibits[0].measuredPower" && error.reason.contains("a value over several lines"), "\(error)")
    }
}
