import BeaconFormats
import HCI
import Ranging

extension BeaconPipeline {
    /// Feeds one HCI packet the way the commands do: the ticks due before it, then its sightings from
    /// the one sighting decoder. Returns false when the packet was malformed. A decoder per packet
    /// joins no extended-report fragments across packets: enough for tests built of legacy reports.
    @discardableResult
    public mutating func feed(_ packet: HCIPacket, onTick: (RangingSnapshot) -> Void) -> Bool {
        advance(to: packet.timestamp, onTick: onTick)
        var decoder = BeaconSightingDecoder()
        do {
            try decoder.decode(packet) { record($0) }
            return true
        } catch {
            return false
        }
    }
}
