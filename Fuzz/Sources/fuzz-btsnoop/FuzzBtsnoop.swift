import FuzzSupport

/// btsnoop files. The first byte picks a datalink the reader takes (H1, H4, Linux monitor) and the
/// rest follows a valid file header, so the fuzzer spends its time in records; a first byte of
/// 0xFF hands the rest over as the whole file, header included.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBTSnoop(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    var file: [UInt8] = []
    if input[0] != 0xFF {
        let datalink: UInt32 = [1001, 1002, 2001][Int(input[0]) % 3]
        file = Array("btsnoop\0".utf8) + [0, 0, 0, 1] + withUnsafeBytes(of: datalink.bigEndian, Array.init)
    }
    file += input[1...]
    FuzzInput.exerciseCapture(file)
    return 0
}
