import CNcursesw
import Glibc
import Monitor

/// Why the terminal could not be taken over.
public struct TerminalError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The one file that calls ncurses (htop's CRT.c): starts and ends curses mode, blits screen buffers
/// and reads keys. Must be used from one thread only (ncurses is not thread-safe): `MonitorLoop` owns it.
///
/// Blitting diffs against the previous frame line by line, so an unchanged frame makes no curses call
/// at all and a changed RSSI redraws one line.
final class CursesTerminal {
    let charset: Charset
    let colorDepth: ColorDepth
    private var previous: ScreenBuffer?
    private var attributeBits: [UInt32] = []
    private var pairs: [Int16] = []
    private var wide: [wchar_t] = []

    /// Takes over the terminal. Call `stop()` on every exit path.
    init(noColorVariable: String?) throws {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        charset = Charset(codeset: codeset)
        guard cnc_start() == 0 else {
            throw TerminalError(description: "cannot start the terminal UI: stdin and stdout must be a terminal with a known TERM (use --headless for NDJSON)")
        }
        let colors = Int(cnc_start_color())
        colorDepth = ColorDepth(colors: colors, noColorVariable: noColorVariable)
        for role in StyleRole.allCases {
            let style = StyleTable.style(for: role, depth: colorDepth)
            var bits = cnc_attr_normal()
            if style.attributes.contains(.bold) { bits |= cnc_attr_bold() }
            if style.attributes.contains(.dim) { bits |= cnc_attr_dim() }
            if style.attributes.contains(.reverse) { bits |= cnc_attr_reverse() }
            if style.attributes.contains(.underline) { bits |= cnc_attr_underline() }
            attributeBits.append(bits)
            var pair: Int16 = 0
            if colorDepth != .monochrome, style.foreground != nil || style.background != nil {
                pair = Int16(role.rawValue) + 1
                _ = cnc_init_pair(pair, style.foreground?.number ?? -1, style.background?.number ?? -1)
            }
            pairs.append(pair)
        }
    }

    var size: ScreenSize { ScreenSize(columns: Int(cnc_columns()), lines: Int(cnc_lines())) }

    func stop() { cnc_stop() }

    /// Forgets the previous frame so the next draw repaints everything (after a resize).
    func invalidate() {
        previous = nil
        cnc_clear()
    }

    /// Draws `buffer`, sending only lines that changed since the last frame.
    func draw(_ buffer: ScreenBuffer) {
        let old = previous.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if old == nil && previous != nil { cnc_clear() }
        var changed = false
        for y in 0..<buffer.height where old.map({ buffer.lineDiffers(y, from: $0) }) ?? true {
            drawLine(y, of: buffer)
            changed = true
        }
        previous = buffer
        if changed { cnc_refresh() }
    }

    /// Draws one line as runs of cells with the same role.
    private func drawLine(_ y: Int, of buffer: ScreenBuffer) {
        buffer.cells.withUnsafeBufferPointer { cells in
            let row = cells[y * buffer.width..<(y + 1) * buffer.width]
            var x = row.startIndex
            while x < row.endIndex {
                let role = row[x].role
                let start = x
                wide.removeAll(keepingCapacity: true)
                while x < row.endIndex, row[x].role == role {
                    if !row[x].isContinuation {
                        for scalar in row[x].character.unicodeScalars { wide.append(wchar_t(bitPattern: scalar.value)) }
                    }
                    x += 1
                }
                // ncurses refuses to write the bottom-right cell without scrolling; it is part of the
                // status line's padding, so leave it out.
                if y == buffer.height - 1 && x == row.endIndex, !wide.isEmpty, !row[x - 1].isContinuation {
                    wide.removeLast()
                }
                let index = Int(role.rawValue)
                wide.withUnsafeBufferPointer { text in
                    _ = cnc_put(Int32(y), Int32(start - row.startIndex), text.baseAddress, Int32(text.count),
                                attributeBits[index], pairs[index])
                }
            }
        }
    }

    /// The next key or click, nil when none is waiting (never blocks).
    func readKey() -> Key? {
        while true {
            var code: Int32 = 0
            switch cnc_read_key(&code) {
            case 0:
                return nil
            case 1:
                guard let scalar = Unicode.Scalar(UInt32(bitPattern: code)) else { continue }
                switch scalar.value {
                case 0x0A, 0x0D: return .enter
                case 0x1B: return .escape
                case 0x08, 0x7F: return .backspace
                default: return .character(Character(scalar))
                }
            default:
                if code == cnc_key_mouse() {
                    var y: Int32 = 0
                    var x: Int32 = 0
                    if cnc_read_click(&y, &x) == 1 { return .click(row: Int(y), column: Int(x)) }
                    continue
                }
                if let key = functionKey(code) { return key }
            }
        }
    }

    private func functionKey(_ code: Int32) -> Key? {
        switch code {
        case cnc_key_up(): .up
        case cnc_key_down(): .down
        case cnc_key_left(): .left
        case cnc_key_right(): .right
        case cnc_key_enter(): .enter
        case cnc_key_backspace(): .backspace
        case cnc_key_resize(): .resize
        case cnc_key_ppage(): .pageUp
        case cnc_key_npage(): .pageDown
        case cnc_key_home(): .home
        case cnc_key_end(): .end
        default: nil
        }
    }
}
