import BeaconFormats
import Monitor
import Testing
@testable import TerminalUI

/// Strings from the air must never put a control character on the terminal.
@Suite struct SanitiserTests {
    /// Every scalar the blitter would send, for the whole screen.
    static func scalars(_ buffer: ScreenBuffer) -> [Unicode.Scalar] {
        buffer.cells.filter { !$0.isContinuation }.flatMap { Array($0.character.unicodeScalars) }
    }

    static func isHarmful(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            || v == 0x200E || v == 0x200F || v == 0x061C || v == 0x2028 || v == 0x2029
    }

    @Test func anEddystoneURLHoldingAnEscapeSequenceIsDrawnHarmlessly() {
        // Clear screen, set the window title (OSC 0, BEL-terminated), 8-bit CSI, a right-to-left override.
        let hostile = "https://evil.example/\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}31m\u{202E}gnp.exe"
        let row = BeaconRowModel(identity: .eddystoneURL(hostile), rssi: -70, accuracy: 2, proximity: .near)
        let nearest = NearestExhibit(identity: .eddystoneURL(hostile), name: hostile, description: "see \u{1B}[5m" + hostile, proximity: .near)
        var state = MonitorState(snapshot: MonitorSnapshot(rows: [row], nearest: nearest, source: SourceStatus(name: "hci0")), screenSize: (120, 20))
        for key: Key in [.escape, .enter] {
            _ = state.handle(key)
            let screen = render(state.viewModel(), size: ScreenSize(columns: 120, lines: 20))
            #expect(!Self.scalars(screen).contains(where: Self.isHarmful), "screen \(state.screen)")
            #expect(screen.text.contains("https://evil.example/�[2J�]0;owned��31m�gnp.exe"))
        }
    }

    @Test func eachClassOfControlIsReplaced() {
        let cases: [(String, String)] = [
            ("a\u{00}b", "a�b"), ("tab\there", "tab�here"), ("new\nline", "new�line"), ("del\u{7F}", "del�"),
            ("c1\u{85}\u{9B}", "c1��"), ("bidi\u{202D}\u{2067}\u{200F}", "bidi���"), ("sep\u{2028}", "sep�"),
            ("zero\u{200B}width", "zero�width"), ("\u{0301}lone mark", "�lone mark"), ("private\u{E000}", "private�"),
        ]
        for (input, expected) in cases {
            #expect(TerminalText.sanitized(input, charset: .unicode) == expected, "\(input.unicodeScalars.map(\.value))")
        }
        // Ordinary text survives, including accents and CJK; an emoji sequence's joiner is left out
        // (TerminalCellWidthTests says why), its emoji kept.
        for safe in ["Musée d'Orsay", "café", "東京国立博物館", "e\u{301}"] {
            #expect(TerminalText.sanitized(safe, charset: .unicode) == safe)
        }
        #expect(TerminalText.sanitized("👩‍🔬 lab", charset: .unicode) == "👩🔬 lab")
    }

    @Test("a zero-width joiner is drawn only between two emoji: after a letter it shifted the cells after it")
    func strayJoinersAreReplaced() {
        for (input, expected) in [("a\u{200D}b", "�b"), ("x\u{200D}\u{200D}", "�"), ("👩\u{200D}", "�"), ("1\u{200D}👍", "�👍")] {
            #expect(TerminalText.sanitized(input, charset: .unicode) == expected, "\(input.unicodeScalars.map(\.value))")
        }
        #expect(TerminalText.width("👩‍🔬", charset: .unicode) == 4, "each emoji in its own 2 cells, as ncurses counts them")
        // The nearest-exhibit panel's rule, named with stray joiners, on a 200-column screen: no
        // joiner is drawn, so the terminal lays out exactly the cells the buffer holds.
        let name = "Ste\u{200D}p a\u{200D}b\u{200D}c"
        let row = BeaconRowModel(identity: .eddystoneURL("https://a.co"), rssi: -50, accuracy: 0.4, proximity: .immediate)
        let nearest = NearestExhibit(identity: .eddystoneURL("https://a.co"), name: name, description: "x\u{200D}y", proximity: .immediate)
        let state = MonitorState(snapshot: MonitorSnapshot(rows: [row], nearest: nearest, source: SourceStatus(name: "hci0")), screenSize: (200, 20))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 200, lines: 20))
        #expect(!Self.scalars(screen).contains("\u{200D}"))
        let rule = (0..<20).map { screen.line($0) }.first { $0.hasPrefix("── ") }
        #expect(rule?.contains("�") == true, "\(String(describing: rule))")
        #expect(rule.map { TerminalText.width($0, charset: .unicode) } == 200)
    }

    @Test func wideCharactersTakeTwoCellsAndAreClippedWhole() {
        var buffer = ScreenBuffer(width: 7, height: 1)
        let written = buffer.write("東京x博", x: 0, y: 0, role: .plain)
        #expect(written == 7)
        #expect(buffer.line(0) == "東京x博")
        #expect(buffer[1, 0].isContinuation && buffer[3, 0].isContinuation && buffer[6, 0].isContinuation)
        var narrow = ScreenBuffer(width: 4, height: 1)
        narrow.write("ab東", x: 0, y: 0, role: .plain, limit: 3)
        #expect(narrow.line(0) == "ab  ")
        #expect(!narrow.cells.contains { $0.isContinuation })
    }

    @Test func asciiCharsetReplacesEverythingOutsideASCII() {
        #expect(TerminalText.sanitized("café \u{1B}[0m ▂▄", charset: .ascii) == "caf? ?[0m ??")
        #expect(Charset(codeset: "UTF-8") == .unicode)
        #expect(Charset(codeset: "utf8") == .unicode)
        #expect(Charset(codeset: "ANSI_X3.4-1968") == .ascii)
        #expect(Charset(codeset: "ISO-8859-1") == .ascii)
        #expect(Charset(codeset: "UTF-8", term: "linux") == .linuxConsole)
        #expect(Charset(codeset: "UTF-8", term: "linux-16color") == .linuxConsole)
        #expect(Charset(codeset: "UTF-8", term: "xterm-256color") == .unicode)
        #expect(Charset(codeset: "ANSI_X3.4-1968", term: "linux") == .ascii)
    }

    @Test func writesOutsideTheBufferAreClippedNotTrapped() {
        var buffer = ScreenBuffer(width: 5, height: 2)
        #expect(buffer.write("hello", x: -3, y: 0, role: .plain) == 2)
        #expect(buffer.line(0) == "lo   ")
        #expect(buffer.write("x", x: 9, y: 1, role: .plain) == 0)
        #expect(buffer.write("x", x: 0, y: 7, role: .plain) == 0)
        buffer.fill("-", x: 3, y: 1, count: 10, role: .muted)
        #expect(buffer.line(1) == "   --")
        buffer.restyle(x: -2, y: 1, count: 3, role: .warning)
        #expect(buffer.roleCodes(1) == "W..mm")
    }
}
