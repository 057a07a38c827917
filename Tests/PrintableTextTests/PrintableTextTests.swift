import PrintableText
import Testing

/// Plain-text outputs (stderr, text tables, text lines, CSV) must never carry a control raw.
@Suite struct PrintableTextTests {
    /// What a terminal acts on or lays out differently: C0, DEL, C1, format characters, separators.
    static func isHarmful(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || [0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0x2028, 0x2029, 0xFEFF].contains(v)
    }

    static let hostile = [
        "clear \u{1B}[2J", "csi 8-bit \u{9B}31m", "title \u{1B}]0;owned\u{07}", "bell \u{07}", "nel \u{85}",
        "rlo \u{202E}exe.txt", "isolate \u{2067}x\u{2069}", "zwj a\u{200D}b", "zwsp a\u{200B}b", "cr lf a\r\nb", "tab\there",
        "del \u{7F}", "bom \u{FEFF}", "sep \u{2028}", "tag \u{E0041}",
    ]

    @Test("each class of control becomes a visible escape, and nothing harmful is left")
    func escapesEveryClass() {
        for text in Self.hostile {
            let line = PrintableText.line(text)
            #expect(!line.unicodeScalars.contains(where: Self.isHarmful), "\(text.unicodeScalars.map(\.value))")
            #expect(line.contains("\\u{"), "\(line)")
        }
        #expect(PrintableText.line("title \u{1B}]0;owned\u{07}") == "title \\u{1B}]0;owned\\u{7}")
        #expect(PrintableText.line("a\r\nb") == "a\\u{D}\\u{A}b")
        #expect(PrintableText.line("\u{9B}31m\u{202E}") == "\\u{9B}31m\\u{202E}")
    }

    @Test("ordinary text is left as it is")
    func ordinaryTextUnchanged() {
        for text in ["Musée d'Orsay", "東京国立博物館", "e\u{301}", "https://example.com/a?b=c", "👍", "-59 dBm"] {
            #expect(PrintableText.line(text) == text)
        }
    }

    @Test("a CSV field is one line: CR LF (one Character) cannot add a row, commas and quotes are quoted")
    func csvField() {
        let crlf = "Hall A\r\nB,C"
        // The trap the old check fell into: Swift sees CR LF as one Character, equal to neither.
        #expect(!crlf.contains(where: { $0 == "\r" || $0 == "\n" }))
        let field = PrintableText.csvField(crlf)
        #expect(!field.unicodeScalars.contains { $0 == "\r" || $0 == "\n" })
        #expect(field == "\"Hall A\\u{D}\\u{A}B,C\"")
        #expect(PrintableText.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(PrintableText.csvField("plain") == "plain")
        for text in Self.hostile {
            #expect(!PrintableText.csvField(text).unicodeScalars.contains(where: Self.isHarmful))
        }
    }

    @Test("a CSV cell a spreadsheet would run as a formula is shown as text")
    func csvFormula() {
        #expect(PrintableText.csvField("=HYPERLINK(\"http://x\")") == "\"'=HYPERLINK(\"\"http://x\"\")\"")
        #expect(PrintableText.csvField("@SUM(A1)") == "'@SUM(A1)")
        #expect(PrintableText.csvField("-2+3") == "'-2+3")
        #expect(PrintableText.csvField("+1") == "'+1")
        #expect(PrintableText.csvField("a=b") == "a=b", "only a leading sign starts a formula")
    }
}
