import FuzzSupport
import HCI

/// H4 framer -> HCI event decoding -> beacon decoding -> ranging. Input: 8 bytes of a Double (the
/// first packet's time, any bit pattern), 1 byte choosing chunk sizes, then the H4 byte stream,
/// fed in chunks as a serial port or socket would split it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzH4(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 9 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var bits: UInt64 = 0
    for byte in bytes[0..<8] { bits = bits << 8 | UInt64(byte) }
    let start = Double(bitPattern: bits)
    var chunkState = UInt32(bytes[8]) | 1
    var framer = H4Framer()
    var packets: [HCIPacket] = []
    var index = 9
    while index < size {
        // A small xorshift: chunk sizes from 1 to 64, repeatable for a given input.
        chunkState ^= chunkState << 13; chunkState ^= chunkState >> 17; chunkState ^= chunkState << 5
        let end = min(size, index + 1 + Int(chunkState % 64))
        framer.append(bytes[index..<end])
        while let output = framer.next() {
            if case .packet(let type, let payload) = output {
                let time = start + Double(packets.count) * 0.01
                packets.append(HCIPacket(timestamp: time, direction: .controllerToHost, type: type, payload: payload[...]))
            }
        }
        index = end
    }
    FuzzInput.exercise(packets: packets)
    return 0
}
