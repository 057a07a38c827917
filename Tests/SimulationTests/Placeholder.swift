import Testing

// Placeholder: this target's tests arrive with its layer.
@Test func SimulationTestsBuilds() { #expect(Bool(true)) }
