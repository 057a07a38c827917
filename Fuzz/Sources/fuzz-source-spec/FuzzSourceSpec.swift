import BeaconFormats
import PacketSources

/// Source spec strings (`hci0:user`, `serial:/dev/ttyACM0@1000000,rtscts`, `tcp:HOST:PORT`, a file)
/// and the beacon descriptions `advertise` and scripts take (`UUID:MAJOR:MINOR`, URLs). The first
/// byte picks a beacon kind and a measured power for the second half.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSourceSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let input = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: input[1...], as: UTF8.self)
    if let spec = try? SourceSpec(parsing: text) {
        _ = spec.description
        _ = spec.isLive
    }
    let kinds: [BeaconKind] = [.iBeacon, .altBeacon, .eddystoneUID, .eddystoneURL]
    let power = Int(Int8(bitPattern: input[0] & 0xF0)) - 20
    _ = try? BeaconSpec.advertisement(kind: kinds[Int(input[0] & 0x03)], text: text, measuredPower: power)
    return 0
}
