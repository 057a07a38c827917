import CNcursesw
import Glibc
import Monitor

/// Why the terminal could not be taken over.
public struct TerminalError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// Why the terminal cannot be taken, asked without taking it (nil: it can). The commands ask
    /// before they start a source or write a file: a run without a terminal wrote `--record`'s
    /// packets and the survey's files first, and the retry in a terminal refused them.
    public static func unavailable() -> TerminalError? {
        CursesTerminal.error(cnc_can_start())
    }
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
    /// One run's characters, reused from line to line (a local, not a property: each access to a
    /// class property in the per-cell loop paid a dynamic exclusivity check).
    private var runBuffer: [wchar_t] = []

    /// Takes over the terminal. Call `stop()` on every exit path.
    init(noColorVariable: String?) throws {
        setlocale(LC_ALL, "")
        let codeset = String(cString: nl_langinfo(nl_item(CODESET)))
        charset = Charset(codeset: codeset, term: getenv("TERM").map { String(cString: $0) } ?? "")
        if let error = Self.error(cnc_start()) { throw error }
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

    /// The words for `cnc_start`'s (or `cnc_can_start`'s) result; nil for 0.
    fileprivate static func error(_ result: Int32) -> TerminalError? {
        switch result {
        case 0: return nil
        case -2:
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            return TerminalError(description: "cannot start the terminal UI: TERM=\(term) cannot move the cursor; run it in a terminal such as xterm-256color, or use `beacontop scan SOURCE --json` for NDJSON")
        default:
            return TerminalError(description: "cannot start the terminal UI: stdin and stdout must be a terminal with a known TERM; for NDJSON without a terminal use `beacontop scan SOURCE --json`")
        }
    }

    var size: ScreenSize { ScreenSize(columns: Int(cnc_columns()), lines: Int(cnc_lines())) }

    func stop() { cnc_stop() }

    /// Forgets the previous frame so the next draw repaints everything (after a resize).
    func invalidate() {
        previous = nil
        cnc_clear()
    }

    /// Draws `buffer`, sending only the part of each line that changed since the last frame: a
    /// monitor row's name and sparkline rarely change between two ticks, its RSSI and age do, and
    /// every cell handed to ncurses costs a conversion and a compare there.
    func draw(_ buffer: ScreenBuffer) {
        let old = previous.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if old == nil && previous != nil { cnc_clear() }
        var changed = false
        for y in 0..<buffer.height {
            let columns: Range<Int>
            if let old {
                guard let span = Self.changedColumns(y, of: buffer, from: old) else { continue }
                columns = span
            } else {
                columns = 0..<buffer.width
            }
            drawLine(y, columns: columns, of: buffer)
            changed = true
        }
        previous = buffer
        if changed { cnc_refresh() }
    }

    /// The columns of line `y` that differ from `old`, widened to whole double-width characters
    /// (in either frame); nil when the line is unchanged.
    ///
    /// Compared as bytes first: `Cell ==` compares its `Character` as a string, retaining and
    /// releasing it, and that was 40% of an idle monitor's time at 160x120 (perf). Equal bytes are
    /// equal cells; differing bytes fall back to `==` (two heap strings may hold the same text).
    static func changedColumns(_ y: Int, of new: ScreenBuffer, from old: ScreenBuffer) -> Range<Int>? {
        let width = new.width
        return new.cells.withUnsafeBytes { a in
            old.cells.withUnsafeBytes { b -> Range<Int>? in
                let stride = MemoryLayout<Cell>.stride
                let line = y * width * stride
                if memcmp(a.baseAddress! + line, b.baseAddress! + line, width * stride) == 0 { return nil }
                let newCells = a.assumingMemoryBound(to: Cell.self)
                let oldCells = b.assumingMemoryBound(to: Cell.self)
                let base = y * width
                func same(_ x: Int) -> Bool {
                    sameBytes(a.baseAddress! + (base + x) * stride, b.baseAddress! + (base + x) * stride)
                        || newCells[base + x] == oldCells[base + x]
                }
                var first = 0
                while first < width, same(first) { first += 1 }
                guard first < width else { return nil }
                var last = width - 1
                while last > first, same(last) { last -= 1 }
                while first > 0, newCells[base + first].isContinuation || oldCells[base + first].isContinuation { first -= 1 }
                while last + 1 < width, newCells[base + last + 1].isContinuation || oldCells[base + last + 1].isContinuation { last += 1 }
                return first..<(last + 1)
            }
        }
    }

    /// The bytes of a cell's fields (character, role, continuation flag; not its padding) are equal.
    @inline(__always)
    private static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
        memcmp(a, b, cellFieldBytes) == 0
    }

    /// Where a cell's fields end: its padding after that is not compared.
    private static let cellFieldBytes = max(
        MemoryLayout<Character>.size,
        MemoryLayout<Cell>.offset(of: \Cell.role)! + MemoryLayout<StyleRole>.size,
        MemoryLayout<Cell>.offset(of: \Cell.isContinuation)! + 1
    )

    /// Draws `columns` of one line as runs of cells with the same role.
    private func drawLine(_ y: Int, columns: Range<Int>, of buffer: ScreenBuffer) {
        var wide = runBuffer
        runBuffer = []
        defer { runBuffer = wide }
        let attributeBits = attributeBits
        let pairs = pairs
        buffer.cells.withUnsafeBufferPointer { cells in
            let line = y * buffer.width
            let row = cells[(line + columns.lowerBound)..<(line + columns.upperBound)]
            let lineEnd = line + buffer.width
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
                if y == buffer.height - 1 && x == lineEnd, !wide.isEmpty, !row[x - 1].isContinuation {
                    wide.removeLast()
                }
                let index = Int(role.rawValue)
                wide.withUnsafeBufferPointer { text in
                    _ = cnc_put(Int32(y), Int32(start - line), text.baseAddress, Int32(text.count),
                                attributeBits[index], pairs[index])
                }
            }
        }
    }

    /// True when `poll` says the terminal (`stdin`'s entry) hung up: its window or SSH session
    /// closed. A shell that ignores HUP and does not pass it on leaves no signal to end the loop, and
    /// a hung-up terminal is always ready, so without this the loop would spin on a full core.
    static func hungUp(_ terminal: pollfd) -> Bool {
        terminal.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
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

extension CursesTerminal {
    /// Takes the terminal for `body` (an owner loop) with the signal handlers that restore it
    /// writing to `wakeup`, and hands it back on return and on throw. Throws `TerminalError`, the
    /// terminal untouched, when stdin/stdout is not a terminal.
    static func owning<Result>(
        wakeup: MonitorWakeup, noColorVariable: String?, _ body: (CursesTerminal) throws -> Result
    ) throws -> Result {
        cnc_install_signal_handlers(wakeup.pipe.writeEnd)
        let terminal: CursesTerminal
        do {
            terminal = try CursesTerminal(noColorVariable: noColorVariable)
        } catch {
            cnc_remove_signal_handlers()
            throw error
        }
        defer {
            terminal.stop()
            cnc_remove_signal_handlers()
        }
        return try body(terminal)
    }
}
