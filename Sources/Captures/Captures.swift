// The Captures layer; see README "Architecture".
