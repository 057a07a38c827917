#include "CNcursesw.h"

// term.h defines lower-case macros (lines, columns, bell, ...): kept out of shim.c.
#include <curses.h>
#include <term.h>
#include <unistd.h>

// The same tests as cnc_start, on a terminfo entry loaded for the question and dropped again, so a
// command that cannot take the terminal says so before it starts its source: the monitor's
// `--record FILE` and the survey's files were written first, and a retry in a terminal was refused
// (the recording held bytes, the survey existed).
int cnc_can_start(void) {
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) return -1;
    TERMINAL *previous = cur_term;
    int error = 0;
    if (setupterm(NULL, STDOUT_FILENO, &error) != OK) return -1;
    const char *cup = tigetstr("cup");
    int result = (cup == NULL || cup == (char *)-1) ? -2 : 0;
    TERMINAL *probe = set_curterm(previous);
    if (probe != previous) del_curterm(probe);
    return result;
}
