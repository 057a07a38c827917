/// A key press or mouse click as the monitor sees it, decoded from ncurses by TerminalUI so that app
/// state and the key map can be tested without a terminal.
public enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace
    /// The terminal was resized (ncurses' KEY_RESIZE).
    case resize
    /// Button 1 pressed at screen cell (row, column).
    case click(row: Int, column: Int)

    /// How the help screen names the key.
    public var label: String {
        switch self {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .resize: "resize"
        case .click: "click"
        }
    }

    /// The ASCII form of `label`, for terminals without a UTF-8 locale.
    public var asciiLabel: String {
        switch self {
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        default: label
        }
    }
}
