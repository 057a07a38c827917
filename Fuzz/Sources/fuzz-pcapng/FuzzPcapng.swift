import FuzzSupport

/// pcapng files. The first byte 0x00 puts a little-endian Section Header Block in front, so the
/// fuzzer starts in interface and packet blocks; anything else hands the rest over as it is.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPCAPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    var file: [UInt8] = []
    if input[0] == 0 {
        // Type, length 28, byte-order magic, version 1.0, section length -1, length again.
        file = [0x0A, 0x0D, 0x0D, 0x0A, 28, 0, 0, 0, 0x4D, 0x3C, 0x2B, 0x1A, 1, 0, 0, 0]
            + [UInt8](repeating: 0xFF, count: 8) + [28, 0, 0, 0]
    }
    file += input[1...]
    FuzzInput.exerciseCapture(file)
    return 0
}
