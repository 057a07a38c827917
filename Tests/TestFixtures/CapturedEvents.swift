import Captures
import HCI

/// The received LE Meta events of a real capture in `../shared/data/captures`, read with the
/// product's streaming reader and copied out of its buffer, to seed decoder tests.
public enum CapturedEvents {
    public static func leMetaEvents(in name: String) throws -> [HCIPacket] {
        var reader = try CaptureReader(path: SharedData.capture(name).path)
        var packets: [HCIPacket] = []
        while let packet = try reader.next() {
            guard packet.type == .event, packet.direction == .controllerToHost, packet.payload.first == 0x3E else { continue }
            var copy = packet
            copy.payload = Array(packet.payload)[...]
            packets.append(copy)
        }
        return packets
    }
}
