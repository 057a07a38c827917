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

    /// A catalog scanner is always kept (`ScannerRegistry`), so its reading is never refused:
    /// the barrier the test publishes after the flood.
    static func catalog(in directory: URL) throws -> String {
        try VenueCommandTests.catalog("""
            exhibits: []
            rooms:
              - id: barrier-room
            scanners:
              - id: barrier
                room: barrier-room
            """, in: directory)
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

        let view = try Command(["scan", broker.url(), "--exhibits", try Self.catalog(in: broker.directory)])
        try await view.waitForOutput()
        // A barrier, not a fixed wait: mosquitto queues a subscription's retained messages for the
        // client while it handles the SUBSCRIBE (before its SUBACK, which the view waited for before
        // its first line), in the one outgoing queue a client has, so a message published now
        // reaches the view after every retained status. Once its beacon is on a line, the view has
        // judged all 3,000 names.
        flooder.publish(MQTTOutgoingMessage(topic: "espresense/devices/\(VenueCommandTests.espID)/barrier", payload: VenueCommandTests.espresense(rssi: -60, distance: 1)))
        try await view.waitForLine("the barrier's beacon on a line") { line in
            (line["beacons"] as? [[String: Any]] ?? []).contains { $0["scanner"] as? String == "barrier" }
        }
        view.process.interrupt()
        #expect(try await view.finish() == 0)
        #expect(view.stderr.contains("2000 broker messages refused (2000 new scanner over the limit)"), "\(view.stderr)")

        // The view announces every room it kept when it ends (before its 10 s delay is up).
        let (dashboard, board) = try await BrokerTests.subscriber(broker, "dashboard", topics: ["beacontop/occupancy/+"])
        // The same barrier for the dashboard: a message published after its SUBACK comes after
        // every retained occupancy the broker holds.
        flooder.publish(MQTTOutgoingMessage(topic: "beacontop/occupancy/zz-barrier", text: "barrier"))
        try await board.wait("the barrier after the retained occupancies", timeout: 60) { !$0.messages(on: "beacontop/occupancy/zz-barrier").isEmpty }
        let occupancies = board.messages.filter { $0.topic != "beacontop/occupancy/zz-barrier" && $0.topic != "beacontop/occupancy/barrier-room" }
        #expect(occupancies.count == 1_000)
        #expect(occupancies.allSatisfy { $0.retained })
        #expect(Set(occupancies.map(\.topic)).count == 1_000)
        #expect(board.messages(on: "beacontop/occupancy/barrier-room").count == 1, "the catalog's room is announced too")
        flooder.stop()
        dashboard.stop()
    }
}
}
