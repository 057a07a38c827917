// The Ranging layer; see README "Architecture".
