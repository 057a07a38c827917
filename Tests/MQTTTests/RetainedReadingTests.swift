import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// Retained junk on the scanners' reading topics, against a real mosquitto: agents and ESPresense
/// nodes never retain readings, so a retained one (a test with `mosquitto_pub -r`, an old tool) is
/// of any age, and the broker hands it to every view that starts.
@Suite("Retained readings on a real mosquitto", .serialized)
struct RetainedReadingTests {
    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    @Test("A view starting on a broker that holds retained readings refuses them (counted), and takes the live ones")
    func retainedReadingsRefused() async throws {
        let broker = try LocalMosquittoBroker()
        let (junk, junkEvents) = try await BrokerTests.subscriber(broker, "junk", topics: ["espresense/devices/+/+", "beacontop/scanners/+/readings"])
        // A reading from 2023 and an ESPresense message, both retained, from scanners that are gone.
        let old = #"{"scanner":"ghost","t":1700000000.0,"beacon":{"id":"\#(VenueCommandTests.beacon)","kind":"ibeacon","address":"C0:00:00:00:00:01","rssi":-41,"filteredRssi":-40.3,"accuracy":0.16,"stale":false}}"#
        junk.publish(MQTTOutgoingMessage(topic: "beacontop/scanners/ghost/readings", text: old, qos: .atLeastOnce, retain: true))
        junk.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/ghost-node",
                                         payload: VenueCommandTests.espresense(rssi: -40, distance: 0.2), qos: .atLeastOnce, retain: true))
        // Both reached the broker (a subscriber gets them back live).
        try await junkEvents.wait("the junk on the broker") { $0.messages.count >= 2 }

        let view = try VenueCommandTests.Command(["scan", broker.url()])
        try await view.waitForOutput()
        // A live reading after the view subscribed: the retained ones came before it, at the SUBACK.
        let live = "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:2"
        let deadline = Date().addingTimeInterval(30)
        while !view.stdout.contains(live) {
            guard Date() < deadline else { break }
            let reading = #"{"scanner":"hall","t":\#(Date().timeIntervalSince1970),"beacon":{"id":"\#(live)","kind":"ibeacon","address":"C0:00:00:00:01:02","rssi":-60,"filteredRssi":-60,"accuracy":1.0,"stale":false}}"#
            junk.publish(MQTTOutgoingMessage(topic: "beacontop/scanners/hall/readings", text: reading))
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        #expect(view.stdout.contains(live), "the live reading never shown: \(view.stdout.prefix(1000))")
        // Before, the view took both as heard at its start: the ghost scanners placed the beacon
        // (RSSI -40, nearer than any live scanner) for the readings' 4 s.
        #expect(!view.stdout.contains("ghost"), "\(view.stdout.prefix(2000))")
        #expect(view.stderr.contains("2 broker messages refused (2 retained reading)"), "stderr: \(view.stderr)")
        junk.stop()
    }
}
}
