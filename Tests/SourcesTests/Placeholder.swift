import Testing

// Placeholder: this target's tests arrive with its layer.
@Test func SourcesTestsBuilds() { #expect(Bool(true)) }
