import BeaconFormats
import Monitor

/// A small scripted museum: three exhibits on one UUID, as a catalog would name them.
enum Museum {
    static let uuid = UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!
    static func id(_ minor: UInt16) -> BeaconIdentity { .iBeacon(uuid: uuid, major: 1, minor: minor) }

    static let rosetta = id(1)
    static let chessmen = id(2)
    static let helmet = id(3)

    static let rosettaText = "A plaster cast of the stele whose three scripts let Champollion read hieroglyphs."

    static func row(_ identity: BeaconIdentity, _ name: String?, rssi: Int, accuracy: Double, proximity: ProximityClass,
                    history: [Int] = [], age: Double = 0.2, stale: Bool = false) -> BeaconRowModel {
        BeaconRowModel(
            identity: identity, exhibitName: name, rssi: rssi, rssiHistory: history, accuracy: accuracy,
            accuracyRange: (accuracy * 0.6)...(accuracy * 1.5), accuracyHistory: [], proximity: proximity,
            measuredPower: -59, packetsPerSecond: 9.8, secondsSinceSeen: age, isStale: stale)
    }

    static let source = SourceStatus(name: "hci0", state: .scanning, advertsPerSecond: 31)

    static func snapshot(rows: [BeaconRowModel], nearest: NearestExhibit? = nil, source: SourceStatus = source) -> MonitorSnapshot {
        MonitorSnapshot(title: "The Little Museum", rows: rows, nearest: nearest, source: source,
                        filterNames: ["kalman", "median", "raw"], activeFilter: "kalman")
    }
}
