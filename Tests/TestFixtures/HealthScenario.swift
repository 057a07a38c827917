import BeaconFormats
import Foundation
import HCI

/// One minute of real frames with timings shaped to every health case, for the product's end-to-end
/// tests (`replay --json --health`, the monitor in tmux): real Eddystone and Govee bytes from
/// ../shared/data, our addresses, times and RSSI.
///
/// - `uidAddress` advertises every 1.0225 s: beacontools' Eddystone-UID, and in every fifth event
///   its plain TLM (2840 mV, 19 °C); the catalog says 100 ms and 3000 mV, so its health has an interval and a
///   low-battery finding.
/// - `encryptedAddress` sends beacontools' eTLM every second and nothing else.
/// - `duplicateAddresses` both send Govee 20596:3932 from 10 s on, at 1.0225 s and 100 ms, at
///   -58 and -81 dBm: a duplicate.
/// - `rotatingAddresses`: Govee 20596:25984 every 200 ms from the first until 30 s, then from the
///   second: an address rotation, merged and not warned.
public enum HealthScenario {
    public static let start = 1_700_000_000.0
    public static let uidAddress = BDAddress("5A:00:00:00:00:10")!
    public static let encryptedAddress = BDAddress("5A:00:00:00:00:20")!
    public static let duplicateAddresses = [BDAddress("5A:00:00:00:00:01")!, BDAddress("5A:00:00:00:00:02")!]
    public static let rotatingAddresses = [BDAddress("5A:00:00:00:00:03")!, BDAddress("5A:00:00:00:00:04")!]
    /// beacontools' Eddystone-UID.
    public static let uidID = "12345678901234678901:000000000001"
    public static let duplicateID = "494E5445-4C4C-495F-524F-434B535F4857:20596:3932"
    public static let rotatingID = "494E5445-4C4C-495F-524F-434B535F4857:20596:25984"

    /// Writes the capture (btsnoop) to `path`.
    public static func writeCapture(to path: String) throws {
        var capture = ShapedCapture()
        var generator = SeededGenerator(seed: 14)
        let govee = try RealFrames.goveeIBeacons()
        guard let duplicate = govee.first(where: { $0.key.description == duplicateID })?.value,
              let rotating = govee.first(where: { $0.key.description == rotatingID })?.value
        else { throw RealFrames.Missing(description: "govee-h5100.btsnoop lacks \(duplicateID) or \(rotatingID)") }
        let t = start
        let uid = try RealFrames.eddystoneUID()
        capture.advertise(
            cycling: [uid, uid, uid, uid, try RealFrames.plainTLM()], from: uidAddress, every: 1.0225, from: t, to: t + 60, rssi: -60,
            generator: &generator
        )
        capture.advertise(try RealFrames.encryptedTLM(), from: encryptedAddress, every: 1, from: t + 0.3, to: t + 60, rssi: -70, generator: &generator)
        capture.advertise(duplicate, from: duplicateAddresses[0], every: 1.0225, from: t, to: t + 60, rssi: -58, generator: &generator)
        capture.advertise(duplicate, from: duplicateAddresses[1], every: 0.1, from: t + 10, to: t + 60, rssi: -81, generator: &generator)
        capture.advertise(rotating, from: rotatingAddresses[0], every: 0.2, from: t, to: t + 30, rssi: -64, generator: &generator)
        capture.advertise(rotating, from: rotatingAddresses[1], every: 0.2, from: t + 30.15, to: t + 60, rssi: -64, generator: &generator)
        try capture.write(to: path)
    }

    /// The catalog the findings are measured against (YAML).
    public static let catalog = """
        title: Health bench
        exhibits:
          - id: "\(uidID)"
            name: Eddystone bench beacon
            advertisingIntervalMs: 100
            lowBatteryMillivolts: 3000
          - id: "\(duplicateID)"
            name: Cloned thermometer
          - id: "\(rotatingID)"
            name: Rotating phone
        """

    /// A fresh directory holding `health.btsnoop` and `health.yaml`.
    public static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-health-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try writeCapture(to: directory.appendingPathComponent("health.btsnoop").path)
        try catalog.write(to: directory.appendingPathComponent("health.yaml"), atomically: true, encoding: .utf8)
        return directory
    }
}
