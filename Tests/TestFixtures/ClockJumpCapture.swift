import Foundation

/// A real capture whose clock jumps mid-file, as a phone's does when its clock is set back (NTP, a
/// timezone bug) or a btsnoop is merged from two logs: `govee-h5100.btsnoop` (395.7 s) with every
/// record from `at` seconds on restamped by `by` seconds (negative: back), written to a temporary
/// file. Returns its path and the index of the first record moved.
public enum ClockJumpCapture {
    public static func write(at: Int64 = 300, by: Int64) throws -> (path: String, firstAfter: Int) {
        var bytes = [UInt8](try Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        var offset = 16
        var index = 0
        var start: Int64?
        var firstAfter: Int?
        while offset + 24 <= bytes.count {
            let included = bytes[(offset + 4)..<(offset + 8)].reduce(0) { $0 << 8 | Int($1) }
            let stamp = bytes[(offset + 16)..<(offset + 24)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            start = start ?? stamp
            if stamp - start! >= at * 1_000_000 {
                firstAfter = firstAfter ?? index
                let moved = UInt64(stamp + by * 1_000_000)
                for byte in 0..<8 { bytes[offset + 16 + byte] = UInt8(truncatingIfNeeded: moved >> (56 - 8 * UInt64(byte))) }
            }
            offset += 24 + included
            index += 1
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("clock-jump-\(UUID().uuidString.prefix(8)).btsnoop").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        guard let firstAfter else { throw CocoaError(.fileReadCorruptFile) }
        return (path, firstAfter)
    }
}
