import NDJSON
import Venue

/// The MQTT payload decoders of a venue view (ESPresense device messages, beacontop readings,
/// statuses, telemetry) and everything after them: the first byte picks the topic the payload
/// arrives on, the rest is the payload. Each input goes through a fresh `VenueView` twice (so a
/// reading can place a beacon), a tick 30 s later (expiry, exits, visits) and the NDJSON venue line;
/// every id the view tracks must be a canonical beacon key or name no beacon.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVenue(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let topics = [
        "espresense/devices/iBeacon:e2c56db5-dffb-48d2-b060-d0f5a71096e4-100-1/kitchen",
        "beacontop/scanners/pi-a/readings",
        "beacontop/scanners/pi-a/status",
        "beacontop/scanners/pi-a/telemetry",
        "espresense/rooms/kitchen/status",
        "espresense/devices/x/hall",
    ]
    let topic = topics[Int(input[0]) % topics.count]
    let payload = Array(input[1...])
    var view = VenueView()
    var writer = JSONWriter(capacity: 1 << 12)
    for time in [1_800_000_000.0, 1_800_000_001.0] {
        _ = view.receive(topic: topic, payload: payload, at: time)
    }
    // One beacon, one key: whatever form an id came in, the view tracks a beacon under its canonical
    // key, which reads back as itself, and a device under an id that names no beacon.
    for beacon in view.beacons {
        if let key = VenueBeaconKey.key(beacon.id), key != beacon.id {
            fatalError("tracked under \(beacon.id.debugDescription), which reads as \(key.debugDescription)")
        }
    }
    _ = view.tick(at: 1_800_000_002.0)
    VenueTickLine.appendLine(time: 1_800_000_002.0, beacons: view.beacons, events: view.takeEvents(), to: &writer)
    _ = view.tick(at: 1_800_000_032.0)
    _ = view.finish(at: 1_800_000_032.0)
    VenueTickLine.appendLine(time: 1_800_000_032.0, beacons: view.beacons, events: view.takeEvents(), to: &writer)
    _ = view.report.json()
    return 0
}
