import Testing

// Placeholder: this target's tests arrive with its layer.
@Test func TerminalUITestsBuilds() { #expect(Bool(true)) }
