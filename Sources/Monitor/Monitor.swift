// The Monitor layer; see README "Architecture".
