// The TerminalUI layer; see README "Architecture".
