import Captures
import Foundation
import TestFixtures
import Testing

/// `CaptureReader.span(path:)`, the length the monitor's status line shows, skims record headers
/// only (btsnoop, pcap): it must land on the same first and last times as reading every packet.
@Suite struct CaptureSpanTests {
    static let files = SharedCaptureTests.table.map(\.file)

    @Test(arguments: files)
    func theSpanIsTheFirstAndLastPacketTimes(_ file: String) throws {
        let full = try readAll(SharedData.capture(file).path)
        let span = try #require(CaptureReader.span(path: SharedData.capture(file).path))
        let first = try #require(full.packets.first).packet.timestamp
        let last = try #require(full.packets.last).packet.timestamp
        // A btmon (datalink 2001) file's records that are no HCI packet (adapter news) carry
        // times too; within a second of the packets' either way.
        #expect(abs(span.first - first) < 1, "\(file): \(span.first) against \(first)")
        #expect(abs(span.last - last) < 1, "\(file): \(span.last) against \(last)")
        #expect(span.seconds > 1, "\(file): \(span.seconds) s")
    }

    @Test("a copy cut inside a record spans up to its last whole record, as the replay plays it")
    func aCutCopySpansToItsLastWholeRecord() throws {
        let file = SharedData.capture("govee-h5100.btsnoop")
        let original = try Array(Data(contentsOf: file))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let cut = original.count / 2 + 5
        let path = try directory.write(Array(original[..<cut]), name: "half.btsnoop")
        let read = try readAll(path)
        #expect(read.truncation != nil)
        let span = try #require(CaptureReader.span(path: path))
        #expect(span.last == read.packets.last?.packet.timestamp)
        #expect(span.last < (try #require(CaptureReader.span(path: file.path))).last)
    }

    @Test("a header with no record, and a file that is no capture, have no span")
    func noRecordNoSpan() throws {
        let original = try Array(Data(contentsOf: SharedData.capture("govee-h5100.btsnoop")))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        #expect(CaptureReader.span(path: try directory.write(Array(original[..<16]), name: "header.btsnoop")) == nil)
        #expect(CaptureReader.span(path: try directory.write(Array("hello".utf8), name: "text")) == nil)
        #expect(CaptureReader.span(path: directory.path("missing")) == nil)
    }
}
