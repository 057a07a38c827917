import FuzzSupport

/// Classic pcap files and every Bluetooth link type the reader decodes (187 H4, 201 H4 with
/// direction, 254 Linux monitor, 256 LE link layer with pseudo-header, 272 Nordic sniffer, 251 LE
/// link layer without one: its CRC checked by the reader). The
/// first byte picks link type, byte order and time resolution for a valid file header; 0xFF hands
/// the rest over as the whole file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPCAP(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    var file: [UInt8] = []
    let choice = input[0]
    if choice != 0xFF {
        let linkType: UInt32 = [187, 201, 254, 256, 272, 251][Int(choice & 0x0F) % 6]
        let bigEndian = choice & 0x10 != 0
        let magic: UInt32 = choice & 0x20 != 0 ? 0xA1B2_3C4D : 0xA1B2_C3D4
        func u32(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init) }
        func u16(_ value: UInt16) -> [UInt8] { withUnsafeBytes(of: bigEndian ? value.bigEndian : value.littleEndian, Array.init) }
        file = u32(magic) + u16(2) + u16(4) + u32(0) + u32(0) + u32(65535) + u32(linkType)
    }
    file += input[1...]
    FuzzInput.exerciseCapture(file)
    return 0
}
