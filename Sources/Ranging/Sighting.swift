import BeaconFormats
import HCI

/// One beacon heard once: what the ranging engine is fed. Time is capture time (Unix seconds).
public struct Sighting: Sendable, Equatable {
    public var time: Double
    public var identity: BeaconIdentity
    /// The frame's 1 m reference power in dBm (nil when the frame has none), before any sanity check.
    public var measuredPower: Int?
    public var address: BDAddress
    public var rssi: Int

    public init(time: Double, identity: BeaconIdentity, measuredPower: Int?, address: BDAddress, rssi: Int) {
        self.time = time
        self.identity = identity
        self.measuredPower = measuredPower
        self.address = address
        self.rssi = rssi
    }

    /// A sighting of a decoded frame.
    public init(time: Double, frame: BeaconFrame, address: BDAddress, rssi: Int) {
        self.init(
            time: time, identity: BeaconIdentity(frame: frame, address: address),
            measuredPower: frame.measuredPower, address: address, rssi: rssi
        )
    }
}
