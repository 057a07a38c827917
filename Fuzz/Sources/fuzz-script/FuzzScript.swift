import FuzzSupport
import HCI
import PacketSources

/// Advertisement scripts (NDJSON written by hand): every line that parses becomes an LE
/// Advertising Report and runs through the decoders and the ranging pipeline.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzInput.write(UnsafeRawBufferPointer(start: data, count: size))
    guard var reader = try? AdvertisementScriptReader(path: FuzzInput.path) else { return 0 }
    var packets: [HCIPacket] = []
    while true {
        do {
            guard let packet = try reader.nextPacket() else { break }
            packets.append(packet)
        } catch {
            _ = "\(error)"
        }
    }
    FuzzInput.exercise(packets: packets)
    return 0
}
