import Foundation
import MQTT
import TestFixtures
import Testing

extension VenueCommands {
/// The built `beacontop scan mqtt://BROKER` view on a broker holding 3,000 invented scanner names
/// (retained `online` statuses, as a firmware renaming its node at every boot leaves them): the
/// view keeps 1,000 (`PresenceSettings.unlistedScannerLimit`), says the rest refused on standard
/// error, and leaves 1,000 retained occupancy messages on the broker, not one per name.
@Suite("Invented scanner names through a real mosquitto", .serialized)
struct ScannerFloodCommandTests {
    typealias Command = VenueCommandTests.Command
    static let names = 3_000

    init() throws {
        try TestPrerequisites.requireExecutable(VenueCommandTests.executable)
    }

    @Test("3,000 invented names: 2,000 refused and said, 1,000 retained occupancies left on the broker")
    func retainedOccupancyBounded() async throws {
        let broker = try LocalMosquittoBroker()
        let (flooder, flood) = try await BrokerTests.subscriber(broker, "flooder", topics: ["espresense/rooms/+/status"])
        for index in 0..<Self.names {
            flooder.publish(MQTTOutgoingMessage(topic: "espresense/rooms/node-up\(index)/status", text: "online", qos: .atLeastOnce, retain: true))
        }
        // Every status is on the broker before the view subscribes (its own subscription got them back).
        try await flood.wait("\(Self.names) statuses", timeout: 60) { $0.messages.count >= Self.names }

        let view = try Command(["scan", broker.url()])
        try await view.waitForOutput()
        // The retained statuses arrive within a second of the subscription; a few more to be sure.
        try await Task.sleep(nanoseconds: 3_000_000_000)
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        // The view announces every room it kept when it ends (before its 10 s delay is up).
        #expect(view.stderr.contains("2000 broker messages refused (2000 new scanner over the limit)"), "\(view.stderr)")

        let (dashboard, board) = try await BrokerTests.subscriber(broker, "dashboard", topics: ["beacontop/occupancy/+"])
        try await board.wait("1,000 retained occupancies", timeout: 60) { $0.messages.count >= 1_000 }
        // Any more would come in the same burst from the broker's retained store.
        try await Task.sleep(nanoseconds: 1_000_000_000)
        #expect(board.messages.count == 1_000)
        #expect(board.messages.allSatisfy { $0.retained })
        #expect(Set(board.messages.map(\.topic)).count == 1_000)
        flooder.stop()
        dashboard.stop()
    }
}
}
