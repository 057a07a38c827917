import Testing

// Placeholder: this target's tests arrive with its layer.
@Test func RangingTestsBuilds() { #expect(Bool(true)) }
