import HCI
import PacketSources

/// A simulated visit as a capture that never ends: the advertisements `RadioSimulator` receives,
/// the walk looping forever, each as the LE Advertising Report event a controller would send. The
/// `sim:CATALOG` source and `demo` replay it through `ReplaySource`, whose thread paces it in real
/// time (times the speed): one pacing, one data path, the same as a file's.
public struct SimulationReader: ReplayPacketReader {
    private var simulator: RadioSimulator

    public init(scenario: Scenario, seed: UInt64) {
        simulator = RadioSimulator(scenario: scenario, seed: seed, looping: true)
    }

    public mutating func nextPacket() -> HCIPacket? {
        guard let reception = simulator.next() else { return nil }
        let advertisement = reception.advertisement
        return AdvertisingReportEncoder.legacyReportPacket([advertisement], at: advertisement.timestamp)
    }

    public var endNote: String? { nil }
}
