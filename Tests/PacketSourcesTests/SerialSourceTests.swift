import Foundation
import Glibc
import HCI
import TestFixtures
import Testing
@testable import PacketSources

/// The serial transport on a pseudo-terminal: the slave side is opened as `serial:/dev/pts/N`
/// exactly as a UART would be, so termios raw mode is really exercised. Without it the tty line
/// discipline would turn CR (0x0D) into LF, eat 0x7F/0x15 as erase/kill characters and hold
/// bytes until a newline: any of which corrupts binary H4.
@Suite("Serial source on a pty")
struct SerialSourceTests {
    @Test("H4 bytes that a cooked tty would mangle arrive intact")
    func rawMode() async throws {
        // posix_openpt/unlockpt/ptsname by hand (Glibc's module hides them): open the
        // multiplexer, clear the slave's lock (TIOCSPTLCK), ask its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0)
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, 0x4004_5431, &unlock) == 0)
        try #require(ioctl(master, 0x8004_5430, &number) == 0)
        let slave = "/dev/pts/\(number)"
        let spec = try SourceSpec(parsing: "serial:\(slave)@115200")
        let source = LiveSource(spec: spec)
        let inbox = SourceInbox()
        try source.start(into: inbox)
        // Event payloads full of CR, LF, DEL, ^U, ^C, ^D and no trailing newline.
        let packets: [[UInt8]] = [
            [0x04, 0x0E, 0x06, 0x0D, 0x0A, 0x7F, 0x15, 0x03, 0x04],
            [0x04, 0x3E, 0x03, 0x0D, 0x0D, 0x11],
        ]
        let bytes = packets.flatMap { $0 }
        _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        let received = await inbox.collect(from: source) { $0.packets.count >= packets.count }.packets.map(\.h4Bytes)
        source.stop()
        #expect(received == packets)
    }

    @Test("a serial device that does not exist names the path and the reason")
    func missingDevice() {
        #expect(throws: TransportError.failed(spec: "serial:/dev/does-not-exist@1000000", SystemCallError(call: "open /dev/does-not-exist", errno: ENOENT))) {
            try TransportOpener().open(.serial(path: "/dev/does-not-exist", baudRate: 1_000_000, flowControl: false))
        }
    }
}
