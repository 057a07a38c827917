import BeaconFormats
import Foundation
import HCI
import Testing
@testable import Ranging

/// A scripted museum walk in the spirit of the issue's target (the Simulation module's walk is the
/// authoritative one): ten exhibits on both walls of a 3 m corridor, 2 m apart along each wall; the
/// visitor stands 0.6-1.2 m from each in turn for 10-25 s, facing it, and walks at 1 m/s between.
/// Radio: log-distance n = 2, shadowing of 4 dB per beacon as an AR(1) process with a 3 s time
/// constant, 4 dB per-packet fading, 2% deep fades of 20 dB, 8 dB body loss for beacons behind the
/// visitor, measured power off by up to 3 dB per beacon, 10 adverts/s. Prints the figures.
@Suite struct MuseumWalkTests {
    struct Stay {
        var exhibit: Int
        var start: Double
        var end: Double
    }

    static func walk(seed: UInt64) -> (sightings: [Sighting], stays: [Stay], identities: [BeaconIdentity], end: Double) {
        var noise = SeededNoise(seed: seed)
        let exhibits: [(x: Double, y: Double)] = (0..<10).map { (index: Int) -> (x: Double, y: Double) in
            let x = Double(index / 2) * 2
            let y: Double = index % 2 == 0 ? 0 : 3
            return (x, y)
        }
        let identities = (0..<10).map { ScriptedBeacon.iBeacon(minor: UInt16($0)).identity }
        let powerError = (0..<10).map { _ in (noise.uniform() * 2 - 1) * 3 }
        // Itinerary: visit every exhibit in a shuffled order.
        var order = Array(0..<10)
        for index in stride(from: 9, to: 0, by: -1) { order.swapAt(index, Int(noise.next() % UInt64(index + 1))) }
        var path: [(time: Double, x: Double, y: Double, facing: Int)] = []
        var stays: [Stay] = []
        var time = 0.0
        var position = (x: 4.0, y: 1.5)
        for exhibit in order {
            let standOff = 0.6 + noise.uniform() * 0.6
            let target = (x: exhibits[exhibit].x, y: exhibits[exhibit].y == 0 ? standOff : 3 - standOff)
            let walkTime = ((target.x - position.x) * (target.x - position.x) + (target.y - position.y) * (target.y - position.y)).squareRoot()
            path.append((time, position.x, position.y, exhibit))
            time += walkTime
            let stay = 10 + noise.uniform() * 15
            path.append((time, target.x, target.y, exhibit))
            stays.append(Stay(exhibit: exhibit, start: time, end: time + stay))
            time += stay
            position = target
        }
        path.append((time, position.x, position.y, order.last!))
        let end = time
        func where_(_ t: Double) -> (x: Double, y: Double, facing: Int) {
            guard let next = path.firstIndex(where: { $0.time > t }), next > 0 else { return (path.last!.x, path.last!.y, path.last!.facing) }
            let a = path[next - 1], b = path[next]
            let f = b.time > a.time ? (t - a.time) / (b.time - a.time) : 1
            return (a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.facing)
        }
        var shadowing = (0..<10).map { _ in noise.gaussian(4) }
        var sightings: [Sighting] = []
        var t = 0.0
        let step = 0.01
        var nextPacket = (0..<10).map { Double($0) * 0.01 }
        while t < end {
            for beacon in 0..<10 {
                // AR(1) shadowing, time constant 3 s, stationary deviation 4 dB.
                let rho = exp(-step / 3)
                shadowing[beacon] = rho * shadowing[beacon] + (1 - rho * rho).squareRoot() * noise.gaussian(4)
                guard t >= nextPacket[beacon] else { continue }
                nextPacket[beacon] += 0.1 + noise.uniform() * 0.01
                let visitor = where_(t)
                let dx = exhibits[beacon].x - visitor.x
                let dy = exhibits[beacon].y - visitor.y
                let squared: Double = dx * dx + dy * dy
                let distance = max(0.1, squared.squareRoot())
                let facingWall = exhibits[visitor.facing].y
                let behind = exhibits[beacon].y != facingWall
                var rssi = -59 + powerError[beacon] - 20 * log10(distance) + shadowing[beacon] + noise.gaussian(4)
                if behind { rssi -= 8 }
                if noise.uniform() < 0.02 { rssi -= 20 }
                sightings.append(Sighting(time: t, identity: identities[beacon], measuredPower: -59, address: BDAddress(rawValue: UInt64(beacon)), rssi: Int(rssi.rounded())))
            }
            t += step
        }
        return (sightings, stays, identities, end)
    }

    @Test func nearestNamesTheRightExhibitDuringStays() {
        var correct = 0
        var counted = 0
        var changes = 0
        var moves = 0
        for seed in 0..<6 {
            let walk = Self.walk(seed: UInt64(seed) + 500)
            let catalog = ExhibitCatalog(exhibits: walk.identities.map { Exhibit(id: $0.description, name: $0.description) })
            var engine = RangingEngine(catalog: catalog)
            let snapshots = run(walk.sightings, engine: &engine, tick: 0.5, until: walk.end)
            for stay in walk.stays {
                for snapshot in snapshots where snapshot.time >= stay.start + 2 && snapshot.time < stay.end {
                    counted += 1
                    if snapshot.nearest == walk.identities[stay.exhibit] { correct += 1 }
                }
            }
            let firstStay = walk.stays[0].start + 2
            let values = snapshots.filter { $0.time >= firstStay }.map(\.nearest)
            changes += zip(values, values.dropFirst()).filter { $0 != $1 }.count
            moves += walk.stays.count - 1
        }
        let share = Double(correct) / Double(counted)
        let perMove = Double(changes) / Double(moves)
        print("museum walk: nearest correct \(String(format: "%.1f", share * 100))% of stay ticks, \(String(format: "%.2f", perMove)) changes per move")
        // This walk is harsher than the issue's (every beacon's shadowing independent, all exhibits
        // 2 m apart; a tick every 0.5 s, and A -> none -> B counts as two changes): measured 88.1%
        // and 1.74 changes per move with every heard exhibit a candidate (87.1% and 1.87 when this bound was
        // set, before later rounds of the nearest rule; 2.17 with the former 4 m
        // floor, which made A -> none -> B; 82.6% and 1.87 with the distance-margin rule before
        // that), where the closest beacon without any hysteresis is right 87% of the time. These bounds guard against regressions; the issue's targets (97%, 1.2) are
        // checked by the Simulation module's walk.
        #expect(share >= 0.80)
        #expect(perMove <= 2.2)
    }
}
