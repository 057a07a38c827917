import Captures
import HCI

/// Reads every packet of `path`, copying payloads out of the reader's buffer, carrying on past
/// malformed records and recording any other error.
func readAll(_ path: String) throws -> ReadResult {
    var reader = try CaptureReader(path: path)
    return readAll(&reader)
}

/// As `readAll(_:)`, from an open reader (a file's or bytes in memory).
func readAll(_ reader: inout CaptureReader) -> ReadResult {
    var result = ReadResult()
    while true {
        do {
            guard var packet = try reader.next() else { break }
            packet.payload = Array(packet.payload)[...]
            result.packets.append((reader.recordOffset, packet))
        } catch {
            result.errors.append(error.description)
            if !error.isRecoverable { break }
        }
    }
    result.records = reader.recordCount
    if let t = reader.truncation {
        result.truncation = CaptureTruncationCopy(what: t.what, offset: t.offset, needed: t.needed, present: t.present)
    }
    return result
}
