import Testing
@testable import Ranging

/// The window filters' sample ring grows on demand; what it holds must be what a plain bounded list
/// holds, through growth, expiry and wrap-around at the capacity.
@Suite struct SampleWindowTests {
    @Test func growingStorageKeepsExactlyTheBoundedListsSamples() {
        var window = SampleWindow(capacity: 100)
        var reference: [(time: Double, value: Double)] = []
        var generator = SplitMix(seed: 7)
        for step in 0..<1000 {
            let time = Double(step) * 0.1
            let value = Double(generator.next() % 60) - 100
            window.append(value, at: time)
            reference.append((time, value))
            if reference.count > 100 { reference.removeFirst() }
            if step % 37 == 0 {
                let cutoff = time - Double(generator.next() % 12)
                window.dropSamples(notAfter: cutoff)
                reference.removeAll { $0.time <= cutoff }
            }
            #expect(window.orderedValues == reference.map(\.value), "step \(step)")
            #expect(window.newestTime == reference.last?.time)
        }
        #expect(window.count == reference.count)
    }

    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
