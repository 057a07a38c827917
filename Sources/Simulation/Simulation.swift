// The Simulation layer; see README "Architecture".
