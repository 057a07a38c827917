import FuzzSupport
import NDJSON
import PacketSources
import Sessions

/// Venue recordings (`replay`, `report` and `monitor` of one): the input is the file, written to
/// /dev/shm (the reader takes a path and reads 1 MiB blocks). It runs as `replay` and `report` run
/// it, every message through `VenueReplay.run` (the reader, the step-back clock, a `VenueScan` and
/// its NDJSON lines), then the report as text, CSV and JSON and the span `monitor` shows. A replay
/// seeking back resumes the reader at a checkpoint's byte offset and line: resumed at each line it
/// must read what the first pass read from there, messages and errors alike.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVenueRecording(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzInput.write(UnsafeRawBufferPointer(start: data, count: size))
    let path = FuzzInput.path
    guard let scan = try? VenueReplay.run(path: path, catalog: nil, warn: { _ in }, emit: { $0.removeAll() }) else { return 0 }
    _ = VenueReplay.text(scan.view.report)
    _ = VenueReplay.csv(scan.view.report)
    _ = scan.view.report.json()
    _ = scan.refusedSummary
    _ = VenueRecordingReader.span(path: path)

    // The first pass: every line's position and what reading it gave.
    guard var reader = try? VenueRecordingReader(path: path) else { return 0 }
    var lines: [(offset: Int, line: Int, read: Result<BrokerMessage?, VenueRecordingError>)] = []
    while lines.count < 64 {
        let read = Result { () throws(VenueRecordingError) in try reader.next() }
        lines.append((reader.lineOffset, reader.lineNumber, read))
        guard case .success(_?) = read else { break }
    }
    // Resumed at each message's line, the reader reads that line and the rest as before.
    for (index, start) in lines.enumerated() where index % 4 == 0 {
        guard case .success(_?) = start.read else { continue }
        guard var resumed = try? VenueRecordingReader(path: path, resumingAt: start.offset, line: start.line) else {
            fatalError("the recording cannot be resumed at line \(start.line), byte \(start.offset)")
        }
        for expected in lines[index...] {
            let read = Result { () throws(VenueRecordingError) in try resumed.next() }
            precondition(read == expected.read, "resumed at line \(start.line): line \(expected.line) read \(read), not \(expected.read)")
            precondition(resumed.lineOffset == expected.offset && resumed.lineNumber == expected.line, "resumed at line \(start.line): positions differ")
        }
    }
    return 0
}
