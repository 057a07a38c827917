import BeaconFormats
import Foundation
import Ranging
import TestFixtures
@testable import Survey

/// A small hall and an empty wing surveyed on a 1.5 m grid: the picture in docs/survey.md and the input of the report
/// tests. Its RSSI is made up (log-distance with n = 2.2, 7 dB per wall crossed, 4 dB of noise),
/// fed through the real `SampleCollector`: a fixture for drawing, not evidence about radio.
enum SurveyFixture {
    static let catalogYAML = """
    title: Hall B, The Little Museum
    exhibits:
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:1"
        name: Rosetta Stone (cast)
        position: [2.5, 7.0]
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:2"
        name: Lewis Chessmen
        position: [2.25, 3.75]
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:3"
        name: Sutton Hoo Helmet (replica)
        position: [5.25, 3.75]
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:4"
        name: Antikythera Mechanism (replica)
        position: [10.5, 7.0]
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:5"
        name: Brass Astrolabe, Toledo
        position: [11.5, 1.5]
      - id: "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:1:6"
        name: Audio guide desk
    walls:
      - [[0, 0], [18, 0], [18, 9], [0, 9], [0, 0]]
      - [[7, 0], [7, 5.5]]
      - [[7, 7.5], [7, 9]]
      - [[9, 4.5], [14, 4.5]]
      - [[14, 0], [14, 7]]
    """

    static func catalog() throws -> ExhibitCatalog { try ExhibitCatalog(yaml: catalogYAML) }

    static func wallsCrossed(_ a: FloorPosition, _ b: FloorPosition, _ catalog: ExhibitCatalog) -> Int {
        catalog.walls.flatMap(\.segments).filter { CoverageField.crosses(a, b, $0.from, $0.to) }.count
    }

    /// Samples every 1.5 m, 40 packets per beacon heard (below -95 dBm a packet is lost).
    static func session() throws -> SurveySession {
        let catalog = try catalog()
        var session = SurveySession(plan: SurveyPlan(catalog: catalog), created: 1_700_000_000, catalogPath: "hall-b.yaml")
        var generator = SeededGenerator(seed: 42)
        var start = 1_700_000_010.0
        for row in 0..<6 {
            for column in 0..<12 {
                let spot = FloorPosition(x: 0.75 + 1.5 * Double(column), y: 0.75 + 1.5 * Double(row))
                var collector = SampleCollector(spot: spot, start: start, catalog: catalog)
                for (index, exhibit) in catalog.exhibits.enumerated() {
                    guard let position = exhibit.position else { continue }
                    let identity = BeaconIdentity.iBeacon(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 1, minor: UInt16(index + 1))
                    let distance = max(0.3, CoverageField.distance(spot, position))
                    let mean = -59 - 22 * log10(distance) - 7 * Double(wallsCrossed(spot, position, catalog))
                    for packet in 0..<40 {
                        // Box-Muller: a normal deviate from two uniform ones.
                        let u = Double.random(in: Double.ulpOfOne..<1, using: &generator), v = Double.random(in: 0..<1, using: &generator)
                        let rssi = mean + 4 * (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
                        guard rssi > -95 else { continue }
                        collector.add(time: start + Double(packet) * 0.125, identity: identity, rssi: Int(rssi.rounded()), measuredPower: -59)
                    }
                }
                session.add(collector.finish(index: 0, end: start + 5))
                start += 12
            }
        }
        return session
    }
}
