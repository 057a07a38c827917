#ifndef CNCURSESW_H
#define CNCURSESW_H
// Placeholder until the TerminalUI work lands: the shim that exposes ncurses macros as functions.
int cnc_placeholder(void);
#endif
