import Foundation

/// A gallery walk (`GalleryWorld`'s venue and route for the seed) whose every packet is a real
/// HERALD sample: for each packet, a sample drawn at random from those the run recorded at the
/// distance (to the rig's step) the visitor truly was from that exhibit. The noise, the multipath
/// and the phone's way of reading RSSI are real; the truth is known.
///
/// Two constructions (`Multipath`):
/// - `.sharedByEveryExhibit` (the stress row): each packet is drawn at the exact distance, so every
///   exhibit has the rig's one distance-to-RSSI map, and two exhibits at the same distance read
///   alike; a phone whose RSSI at 0.6 m equals its RSSI at 2 m makes the exhibit in front of the
///   visitor and one 2 m away indistinguishable for a whole stay, which no venue does;
/// - `.ownPerExhibit` (the venue): each exhibit draws from the rig's samples at its own fixed offset
///   of up to 0.3 m from the true distance (its own multipath: the same phone pair in another
///   multipath state, as a beacon elsewhere in a room is), and each packet at a further sway of up
///   to 0.1 m (a standing visitor is not a robot). The offsets are drawn from their own random
///   stream, so both constructions have the same route, packets and losses.
///
/// What neither can carry, said plainly: every exhibit is the same phone pair (one receiver and
/// one kind of transmitter); there is no body between phone and beacon; beyond the farthest distance
/// the rig went, the farthest distance's samples are taken 20 log10(d / farthest) dB weaker (free
/// space). Each exhibit's catalog measured power is the run's median at 1 m, the technician's
/// calibration.
public enum RealTraceWalk {
    public enum Multipath: Sendable {
        case sharedByEveryExhibit
        case ownPerExhibit
    }

    /// The run's samples by distance (centimetres), for drawing.
    public struct SampleBank: Sendable {
        public var name: String
        public var measuredPower: Double
        /// The farthest distance recorded (m): beyond it packets are extrapolated.
        public var farthest: Double { Double(distances.last ?? 0) / 100 }
        let distances: [Int]
        let samples: [[Double]]

        public init?(_ run: HeraldRun) {
            guard let power = run.measuredPowerAtOneMetre else { return nil }
            var byDistance: [Int: [Double]] = [:]
            for sample in run.samples where sample.distance > 0 {
                byDistance[Int((sample.distance * 100).rounded()), default: []].append(sample.rssi)
            }
            name = run.name
            measuredPower = power
            distances = byDistance.keys.sorted()
            samples = distances.map { byDistance[$0]! }
        }

        /// A sample for a packet at `metres`: from the nearest recorded distance.
        func draw(at metres: Double, random: inout WorldRandom) -> Double {
            let centimetres = metres * 100
            var low = 0, high = distances.count - 1
            while low < high {
                let mid = (low + high) / 2
                if Double(distances[mid]) < centimetres { low = mid + 1 } else { high = mid }
            }
            if low > 0, abs(Double(distances[low - 1]) - centimetres) < abs(Double(distances[low]) - centimetres) { low -= 1 }
            let pool = samples[low]
            let value = pool[random.below(pool.count)]
            let farthest = Double(distances[distances.count - 1])
            return centimetres > farthest ? value - 20 * log10(centimetres / farthest) : value
        }
    }

    public static func recording(seed: UInt64, bank: SampleBank, multipath: Multipath = .sharedByEveryExhibit,
                                 start: Double = 1_800_000_000) -> WalkRecording {
        let layout = GalleryWorld.layout(seed: seed)
        var random = WorldRandom(seed: seed, stream: 3)
        var spots = WorldRandom(seed: seed, stream: 4)
        let path = layout.path
        var packets: [WalkRecording.Packet] = []
        for (index, exhibit) in layout.exhibits.enumerated() {
            let offset = multipath == .ownPerExhibit ? spots.uniform(-0.3, 0.3) : 0
            // HERALD phones logged about one sample a second; beacons here advertise every 0.3-1 s.
            let interval = random.uniform(0.3, 1.0)
            var t = random.uniform(0, interval)
            while t < path.end {
                defer { t += interval + random.uniform(0, 0.01) }
                if random.unit() < 0.1 { continue }
                let pose = path.pose(at: t)
                let dx = exhibit.x - pose.x, dy = exhibit.y - pose.y
                let sway = multipath == .ownPerExhibit ? spots.uniform(-0.1, 0.1) : 0
                let rssi = bank.draw(at: max((dx * dx + dy * dy).squareRoot() + offset + sway, 0.01), random: &random)
                guard rssi >= -100 else { continue }
                packets.append(.init(time: start + t, exhibit: index, rssi: Int(rssi.rounded())))
            }
        }
        packets.sort { $0.time < $1.time }
        return WalkRecording(
            title: "real trace \(bank.name) \(seed)",
            exhibits: layout.exhibits.indices.map { .init(identity: WalkRecording.identity($0), x: layout.exhibits[$0].x, y: layout.exhibits[$0].y, claimedPower: bank.measuredPower) },
            packets: packets,
            stays: path.stays.map { .init(beaconIndex: $0.beaconIndex, start: start + $0.start, end: start + $0.end) },
            start: start, end: start + path.end,
            position: { time in let pose = path.pose(at: time - start); return (pose.x, pose.y) },
            scoredDistances: 0...bank.farthest
        )
    }
}
