import Testing

// Placeholder: this target's tests arrive with its layer.
@Test func CapturesTestsBuilds() { #expect(Bool(true)) }
