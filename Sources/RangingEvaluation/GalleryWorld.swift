import Foundation

/// The evaluation's second radio model: a gallery drawn from a seed, with a physics written for this
/// evaluation alone (no code shared with `Simulation`'s simulator or with the filters), so that a
/// rule tuned on one model is checked on another. Every venue draws its own:
///
/// - room 12-18 m x 5-8 m; exhibits on both long walls, each 1.5-3 m from the previous one;
/// - path-loss exponent 1.6-3.0 for the whole venue; each beacon's true power at 1 m -72 to -56
///   dBm, and the measured power it (and the catalog) claims off by up to +-4 dB;
/// - shadowing fixed in space (a sum of six plane waves per beacon, wavelengths 1-3 m, 2-4 dB):
///   a visitor standing still sees a constant offset no filter can average away;
/// - the visitor's body: 6-12 dB (per venue), none up to 60 degrees off the facing direction,
///   rising linearly to all of it at 150 degrees;
/// - per packet: Gaussian fading of 2-5 dB, a deep fade of 10-25 dB on 2-5% of packets, loss of
///   5-30%, RSSI rounded to whole dBm, nothing below -98 dBm;
/// - beacons advertising every 100-350 ms (plus 0-10 ms);
/// - the visitor enters in the middle of the room, visits the exhibits along one wall and back
///   along the other (skipping about one in ten), standing 0.6-1.2 m in front of each (within 15
///   cm of straight in front), facing it, for 10-25 s, walking 0.8-1.3 m/s between.
public enum GalleryWorld {
    /// The venue and the visitor's route for `seed` (no radio): shared with `RealTraceWalk`.
    struct Layout {
        var length: Double
        var width: Double
        var exhibits: [(x: Double, y: Double)]
        var path: WalkPath
    }

    static func layout(seed: UInt64) -> Layout {
        var random = WorldRandom(seed: seed, stream: 1)
        let length = random.uniform(12, 18), width = random.uniform(5, 8)
        var south: [(x: Double, y: Double)] = []
        var north: [(x: Double, y: Double)] = []
        var x = random.uniform(0.8, 1.5)
        while x < length - 0.8 { south.append((x, 0)); x += random.uniform(1.5, 3.0) }
        x = random.uniform(0.8, 1.5)
        while x < length - 0.8 { north.append((x, width)); x += random.uniform(1.5, 3.0) }
        let exhibits = south + north
        var path = WalkPath()
        path.legs.append(.init(start: 0, duration: 0, from: (length / 2, width / 2), to: (length / 2, width / 2), facing: (0, -1), visiting: nil))
        // South wall west to east, then north wall east to west.
        let order = Array(south.indices) + north.indices.reversed().map { $0 + south.count }
        for index in order {
            if random.unit() < 0.1 { continue }
            let exhibit = exhibits[index]
            let standOff = random.uniform(0.6, 1.2)
            let spot = (x: exhibit.x + random.uniform(-0.15, 0.15), y: exhibit.y == 0 ? standOff : width - standOff)
            path.walk(to: spot, speed: random.uniform(0.8, 1.3))
            path.stand(at: spot, facing: exhibit, for: random.uniform(10, 25), visiting: index)
        }
        path.walk(to: (length / 2, width / 2), speed: random.uniform(0.8, 1.3))
        return Layout(length: length, width: width, exhibits: exhibits, path: path)
    }

    /// One walk through the venue of `seed`, with every packet heard. Times start at `start`.
    public static func recording(seed: UInt64, start: Double = 1_800_000_000) -> WalkRecording {
        let layout = layout(seed: seed)
        var random = WorldRandom(seed: seed, stream: 2)
        let exponent = random.uniform(1.6, 3.0)
        let body = random.uniform(6, 12)
        let shadowing = random.uniform(2, 4)
        let fading = random.uniform(2, 5)
        let deepFadeShare = random.uniform(0.02, 0.05)
        let loss = random.uniform(0.05, 0.3)
        struct Beacon {
            var power: Double
            var claimed: Double
            var interval: Double
            var waves: [(kx: Double, ky: Double, phase: Double)]
        }
        let beacons: [Beacon] = layout.exhibits.map { _ in
            let power = random.uniform(-72, -56)
            let waves = (0..<6).map { _ -> (kx: Double, ky: Double, phase: Double) in
                let wavelength = random.uniform(1, 3), angle = random.uniform(0, 2 * .pi)
                let k = 2 * Double.pi / wavelength
                return (k * cos(angle), k * sin(angle), random.uniform(0, 2 * .pi))
            }
            return Beacon(power: power, claimed: (power + random.uniform(-4, 4)).rounded(), interval: random.uniform(0.1, 0.35), waves: waves)
        }
        let path = layout.path
        var packets: [WalkRecording.Packet] = []
        for (index, beacon) in beacons.enumerated() {
            var t = random.uniform(0, beacon.interval)
            let exhibit = layout.exhibits[index]
            while t < path.end {
                defer { t += beacon.interval + random.uniform(0, 0.01) }
                if random.unit() < loss { continue }
                let pose = path.pose(at: t)
                let dx = exhibit.x - pose.x, dy = exhibit.y - pose.y
                let distance = max((dx * dx + dy * dy).squareRoot(), 0.1)
                let cosine = (dx * pose.facingX + dy * pose.facingY) / distance
                let angle = acos(min(max(cosine, -1), 1)) * 180 / .pi
                let blocked = body * min(max((angle - 60) / 90, 0), 1)
                let field = beacon.waves.reduce(0) { $0 + cos($1.kx * pose.x + $1.ky * pose.y + $1.phase) } * shadowing * (2.0 / 6).squareRoot()
                var rssi = beacon.power - 10 * exponent * log10(distance) + field - blocked + fading * random.normal()
                if random.unit() < deepFadeShare { rssi -= random.uniform(10, 25) }
                guard rssi >= -98 else { continue }
                packets.append(.init(time: start + t, exhibit: index, rssi: Int(min(rssi, -20).rounded())))
            }
        }
        packets.sort { $0.time < $1.time }
        return WalkRecording(
            title: "gallery \(seed)",
            exhibits: layout.exhibits.indices.map { .init(identity: WalkRecording.identity($0), x: layout.exhibits[$0].x, y: layout.exhibits[$0].y, claimedPower: beacons[$0].claimed) },
            packets: packets,
            stays: path.stays.map { .init(beaconIndex: $0.beaconIndex, start: start + $0.start, end: start + $0.end) },
            start: start, end: start + path.end,
            position: { time in let pose = path.pose(at: time - start); return (pose.x, pose.y) }
        )
    }
}
