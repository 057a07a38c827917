import BeaconFormats
import Glibc
import Monitor
import Testing
@testable import TerminalUI

/// The screen buffer must lay text out in exactly the cells ncurses and the terminal give it: they
/// measure by code point (glibc's wcwidth), the buffer by what it draws. Where the two disagreed, a
/// catalog name in Hindi, Tamil or Bengali, or an emoji with a skin tone or a joiner, pushed the rest
/// of its row off the screen and left pieces of it in the panel rule below (seen in tmux).
@Suite struct TerminalCellWidthTests {
    /// Names a venue may well hold, beside the emoji sequences terminals disagree on.
    static let names = [
        "Hindi हिन्दी संग्रहालय", "Tamil தமிழ் அருங்காட்சியகம்", "Bengali বাংলা জাদুঘর", "Thai สวัสดี ครับ",
        "Korean \u{1100}\u{1161}\u{11A8} 한국", "Scientist 👩‍🔬 family 👨‍👩‍👧", "Skin 👍🏽 tone 👋🏿", "Flags 🇬🇧🇫🇷 end",
        "Keycap 1️⃣ heart ❤️ plane ✈︎", "Zalgo z\u{338}\u{321}\u{31B}\u{353}\u{329}\u{32A}a", "Squares ◽◾ ䷀ 〈x〉",
    ]

    /// glibc's wcwidth under C.UTF-8 for this thread only (the width table ncurses lays cells out by).
    /// Looked up at run time: the Glibc module does not import it (an X/Open extension).
    static func withTerminalWidths<T>(_ body: ((Unicode.Scalar) -> Int32) -> T) throws -> T {
        typealias WidthFunction = @convention(c) (wchar_t) -> Int32
        let wcwidth = unsafeBitCast(try #require(dlsym(nil, "wcwidth")), to: WidthFunction.self)
        let locale = try #require(newlocale(LC_CTYPE_MASK, "C.UTF-8", nil))
        let previous = uselocale(locale)
        defer {
            uselocale(previous)
            freelocale(locale)
        }
        return body { wcwidth(wchar_t(bitPattern: $0.value)) }
    }

    @Test("every cell of a row is one glyph as the terminal measures it: its first scalar 1 or 2 wide, the rest 0")
    func everyCellIsWhatTheTerminalMakesOfIt() throws {
        let rows = Self.names.enumerated().map { index, name in
            Museum.row(Museum.id(UInt16(10 + index)), name, rssi: -60 - index, accuracy: Double(index + 1), proximity: .far, history: [-60, -70, -65])
        }
        let nearest = NearestExhibit(identity: rows[1].identity, name: Self.names[1], description: Self.names.joined(separator: " "), proximity: .near)
        let state = MonitorState(snapshot: Museum.snapshot(rows: rows, nearest: nearest), screenSize: (100, 24))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 100, lines: 24))
        try Self.withTerminalWidths { width in
            for y in 0..<screen.height {
                for x in 0..<screen.width where !screen[x, y].isContinuation {
                    let scalars = Array(screen[x, y].character.unicodeScalars)
                    let cells = x + 1 < screen.width && screen[x + 1, y].isContinuation ? 2 : 1
                    #expect(width(scalars[0]) == Int32(cells), "line \(y) column \(x): \(scalars.map { String($0.value, radix: 16) }) in \(screen.line(y))")
                    #expect(scalars.dropFirst().allSatisfy { width($0) == 0 }, "line \(y) column \(x): \(scalars.map { String($0.value, radix: 16) })")
                    #expect(scalars.count <= 5, "ncurses keeps a base and 4 marks in a cell")
                }
            }
        }
        // Every row still ends with its age, at the screen's right edge.
        for y in 2..<(2 + rows.count) {
            #expect(screen.line(y).trimmingTrailingSpaces().hasSuffix("s"), "\(screen.line(y))")
        }
    }

    @Test("widths as tmux lays the strings out; the scalars terminals disagree on are left out")
    func widthsAsTheTerminalLaysThemOut() {
        let cases: [(String, Int, String)] = [
            ("हिन्दी", 5, "हिन्दी"), ("தமிழ்", 4, "தமிழ்"), ("বাংলা", 5, "বাংলা"), ("\u{1100}\u{1161}\u{11A8}", 2, "\u{1100}\u{1161}\u{11A8}"),
            ("👩‍🔬", 4, "👩🔬"), ("👍🏽", 2, "👍"), ("🇬🇧", 2, "🇬🇧"), ("1️⃣", 1, "1\u{20E3}"), ("❤️", 1, "❤"), ("◽", 2, "◽"),
        ]
        for (text, width, drawn) in cases {
            #expect(TerminalText.width(text, charset: .unicode) == width, "\(text)")
            #expect(TerminalText.sanitized(text, charset: .unicode) == drawn, "\(text)")
        }
        var buffer = ScreenBuffer(width: 6, height: 1)
        #expect(buffer.write("तमिழ👩‍🔬", x: 0, y: 0, role: .plain) == 6)
        #expect(buffer.line(0) == "तमिழ👩")
    }

    @Test("a description in a double-width script wraps by columns: every line on screen, nothing lost before the ellipsis")
    func aWideDescriptionWrapsByColumns() throws {
        let description = "全角の説明文です。幅が二倍の文字が折り返しで崩れないか確かめる。東京国立博物館の展示品の説明。"
            + "これは長い説明文で、三行目まで続きます。最後まで読めるでしょうか。もう一文、画面に入りきらない文を足します。"
            + "さらにもう一文、三行には収まらない長さにします。"
        let row = Museum.row(Museum.rosetta, "東京国立博物館の展示品", rssi: -50, accuracy: 0.4, proximity: .immediate)
        let nearest = NearestExhibit(identity: Museum.rosetta, name: "東京国立博物館の展示品", description: description, proximity: .immediate)
        let state = MonitorState(snapshot: Museum.snapshot(rows: [row], nearest: nearest), screenSize: (80, 14))
        let screen = render(state.viewModel(), size: ScreenSize(columns: 80, lines: 14))
        let rule = try #require((0..<14).first { screen.line($0).hasPrefix("── 東京") }, "\(screen.text)")
        let lines = (rule + 1..<rule + 4).map { String(screen.line($0).trimmingTrailingSpaces().dropFirst()) }
        #expect(lines.allSatisfy { TerminalText.width($0, charset: .unicode) <= 78 }, "\(lines)")
        #expect(lines.dropLast().allSatisfy { TerminalText.width($0, charset: .unicode) >= 76 }, "full lines: \(lines)")
        let shown = lines.joined()
        #expect(shown.hasSuffix("…") && description.hasPrefix(String(shown.dropLast())), "the text in order up to the ellipsis: \(lines)")
    }
}
