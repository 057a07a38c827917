#include "CNcursesw.h"
int cnc_placeholder(void) { return 0; }
