import Foundation
import PacketSources
import Venue

extension VenueRecordingReader {
    /// How far from its end a recording's last message is looked for: a recorded line is a few
    /// hundred bytes (an oversized payload up to 2 MiB; then the span is not known).
    static let spanTail = 256 * 1024

    /// Seconds of replay from the recording's first message to its last, or nil when either cannot
    /// be read: the first message from the front, the last from the file's last 256 KiB (the last
    /// whole line that reads as a message, a torn final line left out as the replay leaves it out),
    /// and the steps back of the clock in between counted as the replay counts them
    /// (`replayTime`). A line that cannot be read in the middle of the file ends the replay before
    /// this span does.
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
                let end = replayTime(of: message.receivedAt, at: start + UInt64(lineStart ?? 0), path: path) ?? message.receivedAt
                return max(0, end - first.receivedAt)
            }
            end = lineStart.map { $0 - 1 }
        }
        return nil
    }

    /// The replay's time for the message at byte `offset`, received at `time`: every step back of
    /// the receive times before it of more than `VenueReplay.stepBackTolerance` is a step of zero
    /// (`CaptureClock`), as the replay takes it; reading the first and last lines only, a recording
    /// whose clock was set back 100 s showed a length 100 s short. One pass over the lines before
    /// it, reading each one's time only (a recorded line starts with it); nil when unreadable.
    static func replayTime(of time: Double, at offset: UInt64, path: String) -> Double? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var clock = CaptureClock(tolerance: VenueReplay.stepBackTolerance)
        var pending: [UInt8] = []
        var read: UInt64 = 0
        while read < offset {
            guard let chunk = try? handle.read(upToCount: Int(min(1 << 20, offset - read))), !chunk.isEmpty else { return nil }
            read += UInt64(chunk.count)
            chunk.withUnsafeBytes { pending.append(contentsOf: $0) }
            var lineStart = pending.startIndex
            while let lineEnd = pending[lineStart...].firstIndex(of: 0x0A) {
                if let t = lineTime(pending[lineStart..<lineEnd]) { _ = clock.time(t) }
                lineStart = lineEnd + 1
            }
            pending.removeFirst(lineStart - pending.startIndex)
        }
        return clock.time(time)
    }

    /// A line's receive time: beacontop writes `{"t":` first, then the number (read without a
    /// String, as the replay's reader reads it: a String per line was most of the pass); any other
    /// line is read whole.
    private static func lineTime(_ line: ArraySlice<UInt8>) -> Double? {
        if line.starts(with: timePrefix) {
            // Spaces after the colon: Python's json.dumps writes them (scripts/venue-recording.py).
            let number = line.dropFirst(timePrefix.count).drop { $0 == UInt8(ascii: " ") }
                .prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") && $0 != UInt8(ascii: " ") }
            if let first = number.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"), let t = JSONParser.exactValue(number) ?? Double(String(decoding: number, as: UTF8.self)), t.isFinite { return t }
        }
        return message(flat: Array(line))?.receivedAt
    }

    private static let timePrefix = Array(#"{"t":"#.utf8)
}
