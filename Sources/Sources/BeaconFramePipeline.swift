import BeaconFormats
import HCI

/// One beacon frame as a source delivered it: when, from whom, how loud, and what.
public struct ObservedBeaconFrame: Sendable, Equatable {
    public var timestamp: Double
    public var address: BDAddress
    public var rssi: Int8?
    public var frame: BeaconFrame
    public var identity: BeaconIdentity

    public init(timestamp: Double, address: BDAddress, rssi: Int8?, frame: BeaconFrame) {
        self.timestamp = timestamp
        self.address = address
        self.rssi = rssi
        self.frame = frame
        self.identity = BeaconIdentity(frame: frame, address: address)
    }
}

/// The data path from packets to beacon frames, shared by live sources and replays (btmon's
/// habit): HCI packet -> advertising reports -> beacon frames. Malformed packets are counted,
/// not fatal, and the last one's fault is kept for display.
public struct BeaconFramePipeline: Sendable {
    private var decoder = AdvertisingReportDecoder()
    public private(set) var malformedPackets = 0
    public private(set) var lastMalformation: DecodeError?
    public private(set) var advertisementCount = 0

    public init() {}

    public mutating func frames(in packet: HCIPacket) -> [ObservedBeaconFrame] {
        var frames: [ObservedBeaconFrame] = []
        var advertisements = 0
        do {
            try decoder.decode(packet) { advertisement in
                advertisements += 1
                guard let frame = BeaconDecoder.decode(advertisement.data) else { return }
                frames.append(ObservedBeaconFrame(
                    timestamp: advertisement.timestamp, address: advertisement.address, rssi: advertisement.rssi, frame: frame))
            }
        } catch {
            malformedPackets += 1
            lastMalformation = error
        }
        advertisementCount += advertisements
        return frames
    }
}
