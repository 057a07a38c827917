#include "CNcursesw.h"

#include <CRadioGuard.h>

#include <curses.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int active = 0;
static SCREEN *screen = NULL;

// The terminfo entry names one form of each cursor key: for xterm the application-mode one
// (ESC O C), which keypad mode asks the terminal to send. A terminal that ignores that request, or a
// TERM naming another terminal, sends the normal-mode form (ESC [ C), which ncurses then read as Esc
// followed by '[' and 'C': an arrow closed the help or the detail pane. Both forms are taken for
// the keys the monitor uses; a sequence the entry already binds is left to it.
static void define_missing_keys(void) {
    static const struct { const char *sequence; int code; } keys[] = {
        {"\033[A", KEY_UP}, {"\033[B", KEY_DOWN}, {"\033[C", KEY_RIGHT}, {"\033[D", KEY_LEFT},
        {"\033OA", KEY_UP}, {"\033OB", KEY_DOWN}, {"\033OC", KEY_RIGHT}, {"\033OD", KEY_LEFT},
        {"\033[H", KEY_HOME}, {"\033OH", KEY_HOME}, {"\033[1~", KEY_HOME}, {"\033[7~", KEY_HOME},
        {"\033[F", KEY_END}, {"\033OF", KEY_END}, {"\033[4~", KEY_END}, {"\033[8~", KEY_END},
        {"\033[5~", KEY_PPAGE}, {"\033[6~", KEY_NPAGE},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (key_defined(keys[i].sequence) == 0) define_key(keys[i].sequence, keys[i].code);
}

int cnc_start(void) {
    if (active) return 0;
    int problem = cnc_terminal_problem();
    if (problem != 0) return problem;
    // newterm, unlike initscr, returns NULL instead of exiting the process on an unknown TERM.
    screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    define_missing_keys();
    nodelay(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);
    active = 1;
    return 0;
}

void cnc_stop(void) {
    if (!active) return;
    active = 0;
    mousemask(0, NULL);
    curs_set(1);
    endwin();
    if (screen != NULL) {
        delscreen(screen);
        screen = NULL;
    }
}

int cnc_is_active(void) { return active; }

int cnc_lines(void) { int y, x; getmaxyx(stdscr, y, x); (void)x; return y; }
int cnc_columns(void) { int y, x; getmaxyx(stdscr, y, x); (void)y; return x; }

int cnc_start_color(void) {
    if (!has_colors()) return 0;
    if (start_color() == ERR) return 0;
    use_default_colors();
    return COLORS;
}

int cnc_init_pair(short pair, short fg, short bg) { return init_pair(pair, fg, bg); }

uint32_t cnc_attr_bold(void) { return (uint32_t)A_BOLD; }
uint32_t cnc_attr_dim(void) { return (uint32_t)A_DIM; }
uint32_t cnc_attr_reverse(void) { return (uint32_t)A_REVERSE; }
uint32_t cnc_attr_underline(void) { return (uint32_t)A_UNDERLINE; }
uint32_t cnc_attr_normal(void) { return (uint32_t)A_NORMAL; }

int cnc_put(int y, int x, const wchar_t *text, int count, uint32_t attributes, short pair) {
    attr_set((attr_t)attributes, pair, NULL);
    int result = mvaddnwstr(y, x, text, count);
    attr_set(A_NORMAL, 0, NULL);
    return result;
}

void cnc_clear(void) { clearok(stdscr, TRUE); erase(); }
void cnc_refresh(void) { wnoutrefresh(stdscr); doupdate(); }

int cnc_read_key(int32_t *ch) {
    wint_t value = 0;
    int kind = get_wch(&value);
    if (kind == ERR) return 0;
    *ch = (int32_t)value;
    return kind == KEY_CODE_YES ? 2 : 1;
}

int cnc_key_up(void) { return KEY_UP; }
int cnc_key_down(void) { return KEY_DOWN; }
int cnc_key_left(void) { return KEY_LEFT; }
int cnc_key_right(void) { return KEY_RIGHT; }
int cnc_key_enter(void) { return KEY_ENTER; }
int cnc_key_backspace(void) { return KEY_BACKSPACE; }
int cnc_key_resize(void) { return KEY_RESIZE; }
int cnc_key_mouse(void) { return KEY_MOUSE; }
int cnc_key_npage(void) { return KEY_NPAGE; }
int cnc_key_ppage(void) { return KEY_PPAGE; }
int cnc_key_home(void) { return KEY_HOME; }
int cnc_key_end(void) { return KEY_END; }

int cnc_read_click(int *y, int *x) {
    MEVENT event;
    if (getmouse(&event) != OK) return 0;
    if (!(event.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))) return 0;
    *y = event.y;
    *x = event.x;
    return 1;
}

// ---- signals -----------------------------------------------------------------------------------

static volatile sig_atomic_t pending_signal = 0;
static volatile sig_atomic_t wake_descriptor = -1;
static volatile sig_atomic_t have_saved_modes = 0;
static struct termios saved_modes;
static struct sigaction previous[32];
// SIGHUP (the terminal or SSH session went away) and SIGQUIT (Ctrl-\) end a process by default too:
// caught like SIGINT, so the loop restores the terminal and the runner disables scanning.
static const int quit_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static struct sigaction previous_pipe;
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};

static void on_quit_signal(int sig) {
    pending_signal = sig;
    int fd = wake_descriptor;
    if (fd >= 0) {
        char byte = 'q';
        ssize_t ignored = write(fd, &byte, 1);
        (void)ignored;
    }
}

static void on_crash_signal(int sig, siginfo_t *info, void *context) {
    // Mouse reporting off, attributes reset, cursor shown, alternate screen left: the sequences
    // endwin would send for an xterm-compatible terminal.
    static const char reset[] = "\033[?1000l\033[?1002l\033[?1006l\033[0m\033[?25h\033[?1049l\r\n";
    ssize_t ignored = write(STDOUT_FILENO, reset, sizeof reset - 1);
    (void)ignored;
    if (have_saved_modes) tcsetattr(STDIN_FILENO, TCSANOW, &saved_modes);
    // Let whoever had the signal before report the crash (CRadioGuard stops the radio, the Swift
    // runtime's backtracer reports), then die by the default action: returning instead would resume
    // a process whose terminal is no longer in curses mode.
    crg_pass_on(sig, info, context, &previous[sig]);
}

void cnc_install_signal_handlers(int wake_fd) {
    wake_descriptor = wake_fd;
    pending_signal = 0;
    if (tcgetattr(STDIN_FILENO, &saved_modes) == 0) have_saved_modes = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_handler = on_quit_signal;
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
        sigaction(quit_signals[i], &action, &previous[quit_signals[i]]);
    // The loop may run on a thread that inherited a blocked mask (libdispatch workers block async
    // signals): unblock the ones the monitor relies on, SIGWINCH included for ncurses' KEY_RESIZE.
    // A terminal that went away makes writes fail with EIO, never SIGPIPE; a pipe can: ignore it so a
    // failed write is an error, not death before the clean-up.
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    sigemptyset(&ignore.sa_mask);
    ignore.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ignore, &previous_pipe);
    sigset_t wanted;
    sigemptyset(&wanted);
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++) sigaddset(&wanted, quit_signals[i]);
    sigaddset(&wanted, SIGWINCH);
    pthread_sigmask(SIG_UNBLOCK, &wanted, NULL);
    action.sa_handler = NULL;
    action.sa_sigaction = on_crash_signal;
    action.sa_flags = SA_SIGINFO;
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        sigaction(crash_signals[i], &action, &previous[crash_signals[i]]);
}

void cnc_remove_signal_handlers(void) {
    for (size_t i = 0; i < sizeof quit_signals / sizeof quit_signals[0]; i++)
        sigaction(quit_signals[i], &previous[quit_signals[i]], NULL);
    for (size_t i = 0; i < sizeof crash_signals / sizeof crash_signals[0]; i++)
        sigaction(crash_signals[i], &previous[crash_signals[i]], NULL);
    sigaction(SIGPIPE, &previous_pipe, NULL);
    wake_descriptor = -1;
    have_saved_modes = 0;
}

int cnc_pending_signal(void) { return pending_signal; }

// Last in the file: <term.h> defines a macro for every capability's name (lines, columns, ...).
#include <term.h>

int cnc_terminal_problem(void) {
    if (active) return 0;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return -1;
    // setupterm reads the terminfo entry alone: nothing is written, no mode is changed.
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK) return -1;
    // A known TERM that cannot move the cursor (TERM=dumb) gets every frame as scrolling lines with
    // only the status line readable; refuse it before anything is drawn.
    const char *cup = tigetstr("cup");
    int problem = (cup == NULL || cup == (char *)-1) ? -2 : 0;
    del_curterm(cur_term);
    return problem;
}
