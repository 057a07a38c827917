import BeaconFormats
import Foundation
import Ranging
import Simulation

/// A visitor's walk past exhibits with every packet their phone heard and the truth: where the
/// visitor was at each moment and which exhibit they stood at. The three worlds of the evaluation
/// (`GalleryWorld`, `RealTraceWalk`, `SimulatorWorld`) all produce one, and `WalkEvaluation`
/// ranges it with beacontop and the field's pipelines alike.
public struct WalkRecording: Sendable {
    public struct Exhibit: Sendable {
        public var identity: BeaconIdentity
        /// Floor position, metres.
        public var x: Double
        public var y: Double
        /// What the beacon's frame and the catalog say its power at 1 m is (dBm): a calibration,
        /// with the calibration's error.
        public var claimedPower: Double
    }

    public struct Packet: Sendable {
        public var time: Double
        public var exhibit: Int
        public var rssi: Int
    }

    public var title: String
    public var exhibits: [Exhibit]
    /// In time order.
    public var packets: [Packet]
    /// The visits, with `beaconIndex` an index into `exhibits` and times on the packets' clock.
    public var stays: [Stay]
    public var start: Double
    public var end: Double
    /// Where the visitor is at a time (metres).
    public var position: @Sendable (Double) -> (x: Double, y: Double)
    /// Distances whose RSSI is the world's own (the real-trace walk's recorded range); distance
    /// errors and ranges are scored only there. Nil: everywhere.
    public var scoredDistances: ClosedRange<Double>? = nil

    public func distance(to exhibit: Int, at time: Double) -> Double {
        let p = position(time)
        let dx = exhibits[exhibit].x - p.x, dy = exhibits[exhibit].y - p.y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// The exhibits as a catalog, each with its claimed measured power, as a venue would write it.
    public var catalog: ExhibitCatalog {
        ExhibitCatalog(title: title, exhibits: exhibits.enumerated().map { index, exhibit in
            Ranging.Exhibit(id: exhibit.identity.description, name: "exhibit \(index + 1)",
                            position: FloorPosition(x: exhibit.x, y: exhibit.y), measuredPower: exhibit.claimedPower)
        })
    }

    /// The identity of exhibit `index` in a world: one UUID per world kind, minor = index + 1.
    static func identity(_ index: Int) -> BeaconIdentity {
        .iBeacon(uuid: UUIDBytes("5A4E0001-7C1B-4E36-9E1D-3B0F2A6C8D11")!, major: 9, minor: UInt16(index + 1))
    }
}
