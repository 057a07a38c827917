import Testing
@testable import Ranging

@Suite struct ProximityTests {
    @Test func plainThresholdsAreTheDocumentedOnes() {
        let classifier = ProximityClassifier()
        #expect(classifier.plainClass(of: 0.3) == .immediate)
        #expect(classifier.plainClass(of: 0.5) == .near)
        #expect(classifier.plainClass(of: 2.99) == .near)
        #expect(classifier.plainClass(of: 3.0) == .far)
        #expect(classifier.plainClass(of: -1) == .unknown)
    }

    @Test func aClassChangeNeedsTheMarginAndTheDwell() {
        var classifier = ProximityClassifier(margin: 0.15, dwell: 2)
        #expect(classifier.update(distance: 2.0, at: 0) == .near)
        // Past the boundary but inside the margin: stays near however long.
        for t in 1...10 { #expect(classifier.update(distance: 3.3, at: Double(t)) == .near) }
        // Clearly far, but only for 1 s: still near.
        #expect(classifier.update(distance: 4.0, at: 11) == .near)
        #expect(classifier.update(distance: 4.0, at: 12) == .near)
        #expect(classifier.update(distance: 2.0, at: 12.5) == .near)
        // Clearly far for 2 s: far.
        #expect(classifier.update(distance: 4.0, at: 13) == .near)
        #expect(classifier.update(distance: 4.0, at: 15) == .far)
        #expect(classifier.update(distance: nil, at: 16) == .unknown)
    }

    /// A beacon sitting on the near/far boundary (3 m), 10 adverts/s, 4 dB noise, through the default
    /// engine: the class changes at most once in 30 s.
    @Test(arguments: 0..<16)
    func aBeaconOnABoundaryDoesNotFlap(seed: Int) {
        for boundary in [0.5, 3.0] {
            var noise = SeededNoise(seed: UInt64(seed) + 100)
            let beacon = ScriptedBeacon.iBeacon(minor: 9)
            let sightings = beacon.sightings(from: 0, to: 40, noise: &noise) { _ in boundary }
            var engine = RangingEngine()
            let snapshots = run(sightings, engine: &engine, tick: 0.5, until: 40)
            let classes = snapshots.filter { $0.time >= 10 }.map { $0.beacons[0].proximity }
            let changes = zip(classes, classes.dropFirst()).filter { $0 != $1 }.count
            #expect(changes <= 1, "boundary \(boundary) m seed \(seed): \(changes) changes")
        }
    }
}
