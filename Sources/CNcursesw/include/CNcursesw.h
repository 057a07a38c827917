#ifndef CNCURSESW_H
#define CNCURSESW_H
// The C shim between Swift and ncursesw. ncurses exposes much of its API as macros (getmaxyx,
// COLOR_PAIR, the A_* attributes, KEY_* codes, getmouse's MEVENT bits) which Swift cannot import;
// each is wrapped here as a small function. Only TerminalUI's CursesTerminal.swift calls this module.
//
// Terminal restoration on signals also lives here, in C, because a signal handler may only call
// async-signal-safe functions (POSIX.1-2017 2.4.3): write(2), tcsetattr(3), raise(3). ncurses' own
// endwin() is not among them, so the crash path writes the reset sequences itself.

#include <stdint.h>
#include <wchar.h>

/// Initialises the screen (setlocale must already have run). Returns 0, or -1 if stdin/stdout is not
/// a terminal or ncurses could not start (newterm failed: unknown TERM), -2 if the terminal cannot
/// move the cursor (no `cup`: TERM=dumb); the terminal is left as it was on either failure.
int cnc_start(void);
/// What cnc_start would return, asked without taking the terminal (setupterm, no output): the
/// commands check it before they start a source or a recording.
int cnc_can_start(void);
/// Ends curses mode (endwin); safe to call twice.
void cnc_stop(void);
/// 1 if ncurses is active.
int cnc_is_active(void);

/// Terminal size in cells (getmaxyx on stdscr).
int cnc_lines(void);
int cnc_columns(void);

/// Colour support: returns the number of colours usable for pairs (0 when has_colors() is false).
int cnc_start_color(void);
/// init_pair with -1 meaning the terminal's default colour (use_default_colors).
int cnc_init_pair(short pair, short fg, short bg);

/// Attribute bits (the A_* macros).
uint32_t cnc_attr_bold(void);
uint32_t cnc_attr_dim(void);
uint32_t cnc_attr_reverse(void);
uint32_t cnc_attr_underline(void);
uint32_t cnc_attr_normal(void);

/// Writes `count` wide characters at (y, x) with the attributes and colour pair (attr_set + mvaddnwstr).
int cnc_put(int y, int x, const wchar_t *text, int count, uint32_t attributes, short pair);
/// Clears the whole screen on the next refresh (clearok + erase).
void cnc_clear(void);
/// Flushes to the terminal (wnoutrefresh + doupdate).
void cnc_refresh(void);

/// Reads one key without blocking. Returns 0 when there is none, 1 for a character (in *ch), 2 for a
/// function key (KEY_* code in *ch).
int cnc_read_key(int32_t *ch);

/// KEY_* codes.
int cnc_key_up(void);
int cnc_key_down(void);
int cnc_key_left(void);
int cnc_key_right(void);
int cnc_key_enter(void);
int cnc_key_backspace(void);
int cnc_key_resize(void);
int cnc_key_mouse(void);
int cnc_key_npage(void);
int cnc_key_ppage(void);
int cnc_key_home(void);
int cnc_key_end(void);

/// Reads the pending mouse event after KEY_MOUSE: returns 1 and the cell if it was a button-1 press or
/// click, 0 otherwise.
int cnc_read_click(int *y, int *x);

/// Installs the signal handlers: SIGINT, SIGTERM, SIGHUP and SIGQUIT set a flag and write one byte to
/// `wake_fd` (so the loop's poll wakes and quits cleanly through endwin); SIGPIPE is ignored; SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT and
/// SIGFPE (a Swift trap is SIGILL or SIGTRAP) restore the saved terminal modes, leave the alternate
/// screen, show the cursor, call the previous handler (the Swift runtime's backtracer) so the crash
/// is still reported, then die by the default action.
/// Also unblocks those four and SIGWINCH on the calling thread. Call before cnc_start so ncurses
/// keeps our handlers.
void cnc_install_signal_handlers(int wake_fd);
/// Restores the handlers that were in place before cnc_install_signal_handlers.
void cnc_remove_signal_handlers(void);
/// The last SIGINT/SIGTERM/SIGHUP/SIGQUIT received since install (0 if none).
int cnc_pending_signal(void);

#endif
