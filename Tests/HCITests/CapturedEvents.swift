import Foundation
import HCI
import TestFixtures

/// The LE Meta events of a real btsnoop (datalink 1002, H4) capture, read just far enough to seed
/// decoder tests. Test-only on purpose: the streaming reader the product uses lives in `Captures`;
/// this walk only needs record lengths (btsnoop: 16-byte file header, then 24-byte record headers,
/// big-endian) and must not depend on that module's progress.
enum CapturedEvents {
    static func leMetaEvents(in name: String) throws -> [HCIPacket] {
        let bytes = [UInt8](try Data(contentsOf: SharedData.capture(name)))
        var packets: [HCIPacket] = []
        var offset = 16
        func word(_ at: Int) -> Int {
            Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
        }
        while offset + 24 <= bytes.count {
            let included = word(offset + 4)
            let flags = word(offset + 8)
            let start = offset + 24
            guard start + included <= bytes.count else { break }
            // Flags bit 0 set: received (controller to host); H4 indicator 0x04 = event, 0x3E = LE Meta.
            if flags & 1 == 1, included >= 3, bytes[start] == 0x04, bytes[start + 1] == 0x3E {
                packets.append(HCIPacket(timestamp: Double(packets.count), direction: .controllerToHost,
                                         type: .event, payload: bytes[(start + 1)..<(start + included)]))
            }
            offset = start + included
        }
        return packets
    }
}
