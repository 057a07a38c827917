import Foundation

extension VenueRecordingReader {
    /// How far from its end a recording's last message is looked for: a recorded line is a few
    /// hundred bytes (an oversized payload up to 2 MiB; then the span is not known).
    static let spanTail = 256 * 1024

    /// Seconds from the recording's first message to its last, or nil when either cannot be read:
    /// the first message from the front, the last from the file's last 256 KiB (the last whole line
    /// that reads as a message, a torn final line left out as the replay leaves it out), so a
    /// recording of any length costs two small reads. A line that cannot be read in the middle of
    /// the file ends the replay before this span does.
    public static func span(path: String) -> Double? {
        guard var reader = try? VenueRecordingReader(path: path), let first = try? reader.next() else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd() else { return nil }
        let start = size > UInt64(spanTail) ? size - UInt64(spanTail) : 0
        guard (try? handle.seek(toOffset: start)) != nil, let tail = try? handle.readToEnd() else { return nil }
        let bytes = [UInt8](tail)
        var end = bytes.lastIndex(of: 0x0A)
        while let lineEnd = end {
            let lineStart = bytes[..<lineEnd].lastIndex(of: 0x0A).map { $0 + 1 }
            // A line cut by the window's start is no line.
            if lineStart == nil && start > 0 { return nil }
            let line = bytes[(lineStart ?? 0)..<lineEnd]
            if let message = message(flat: Array(line)) ?? (try? message(document: line)) {
                return max(0, message.receivedAt - first.receivedAt)
            }
            end = lineStart.map { $0 - 1 }
        }
        return nil
    }
}
