// The Sources layer; see README "Architecture".
