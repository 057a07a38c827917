import BeaconFormats
import HCI

/// What beacon health keeps about one transmitter (one address): a fixed amount, whatever it sends.
struct TransmitterRecord: Sendable {
    var address: BDAddress
    var firstSeen: Double
    var lastSeen: Double
    var frames = 0
    var lastRSSI: Int?
    /// Identities it sent (not TLM, which names none), most recent last, at most
    /// `HealthConfiguration.identitiesPerTransmitter`.
    var identities: [BeaconIdentity] = []
    /// The 1 m power of its last identity frame, as sent (before any sanity check).
    var frameMeasuredPower: Int?
    /// The last identity frame: most packets repeat it, and comparing a frame is cheaper than
    /// building its identity (`beacontop-bench survey`).
    private var lastFrame: BeaconFrame?
    var telemetry: Telemetry?
    var reboots = 0
    /// Start times of its last advertising events, oldest first, in a ring.
    private var events: [Double]
    private var head = 0
    private var count = 0

    init(address: BDAddress, time: Double, capacity: Int) {
        self.address = address
        firstSeen = time
        lastSeen = time
        events = Array(repeating: 0, count: max(2, capacity))
    }

    mutating func observe(time: Double, rssi: Int?, frame: BeaconFrame, identityLimit: Int) {
        frames += 1
        if rssi != nil { lastRSSI = rssi }
        lastSeen = max(lastSeen, time)
        if count == 0 || time - newestEvent >= AdvertisingIntervalEstimate.sameEvent {
            events[head] = time
            head += 1
            if head == events.count { head = 0 }
            if count < events.count { count += 1 }
        }
        if case .eddystoneTLM(let tlm) = frame {
            let telemetry = Telemetry(tlm, time: time)
            if let before = self.telemetry?.uptimeSeconds, let now = telemetry.uptimeSeconds, now < before { reboots += 1 }
            self.telemetry = telemetry
            return
        }
        if frame == lastFrame { return }
        lastFrame = frame
        frameMeasuredPower = frame.measuredPower
        let identity = BeaconIdentity(frame: frame, address: address)
        if identities.last != identity {
            identities.removeAll { $0 == identity }
            identities.append(identity)
            if identities.count > identityLimit { identities.removeFirst() }
        }
    }

    private var newestEvent: Double { events[head == 0 ? events.count - 1 : head - 1] }

    /// The kept event times, oldest first.
    var eventTimes: [Double] {
        (0..<count).map { events[(head - count + $0 + events.count) % events.count] }
    }

    /// Takes over what an earlier address of the same transmitter knew (it rotated its address):
    /// its events come first, so the interval estimate runs on across the change.
    mutating func absorb(_ earlier: TransmitterRecord, identityLimit: Int) {
        let merged = (earlier.eventTimes + eventTimes).sorted().suffix(events.count)
        head = 0
        count = 0
        for time in merged {
            events[head] = time
            head = (head + 1) % events.count
            count += 1
        }
        firstSeen = min(firstSeen, earlier.firstSeen)
        frames += earlier.frames
        reboots += earlier.reboots
        if telemetry == nil { telemetry = earlier.telemetry }
        for identity in earlier.identities.reversed() where !identities.contains(identity) && identities.count < identityLimit {
            identities.insert(identity, at: 0)
        }
    }
}
