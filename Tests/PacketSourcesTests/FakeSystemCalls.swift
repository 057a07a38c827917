import Glibc
import Synchronization
@testable import PacketSources

/// Stands in for the kernel: each call fails with the errno a test sets, and every call made is
/// recorded, so error paths of the HCI socket are tested on a machine without Bluetooth.
///
/// Where no errno is set it answers as Linux 6.1 did in the VM tests (docs/kernel-hci.md): HCIDEVUP
/// fails with EALREADY on an adapter that is up and powers a down one on; a command written to a
/// down adapter fails with ENETDOWN (binding to it works).
final class FakeSystemCalls: SystemCalls {
    struct Log {
        var calls: [String] = []
        var bound: [UInt8]?
        var socketOptions: [(level: Int32, name: Int32, value: [UInt8])] = []
        var closed: [Int32] = []
        var adapterUp = true
    }

    let failures: [String: Int32]
    let adapters: [String]
    let log = Mutex(Log())

    init(failing failures: [String: Int32] = [:], adapters: [String] = [], adapterUp: Bool = true) {
        self.failures = failures
        self.adapters = adapters
        log.withLock { $0.adapterUp = adapterUp }
    }

    private func record(_ call: String) throws(SystemCallError) {
        log.withLock { $0.calls.append(call) }
        if let errno = failures[call] { throw SystemCallError(call: call, errno: errno) }
    }

    func socket(domain: Int32, type: Int32, protocol: Int32) throws(SystemCallError) -> Int32 {
        try record("socket")
        return 42
    }

    func bind(_ fd: Int32, address: [UInt8]) throws(SystemCallError) {
        try record("bind")
        log.withLock { $0.bound = address }
    }

    func setsockopt(_ fd: Int32, level: Int32, name: Int32, value: [UInt8]) throws(SystemCallError) {
        try record("setsockopt")
        log.withLock { $0.socketOptions.append((level, name, value)) }
    }

    func connectTCP(host: String, port: UInt16) throws(SystemCallError) -> Int32 { try record("connectTCP"); return 43 }
    func connectUnix(path: String) throws(SystemCallError) -> Int32 { try record("connectUnix"); return 44 }
    func openSerial(path: String, baudRate: Int, flowControl: Bool) throws(SystemCallError) -> Int32 { try record("openSerial"); return 45 }
    func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(SystemCallError) -> Bool { try record("waitReadable"); return false }
    func read(_ fd: Int32, into buffer: inout [UInt8]) throws(SystemCallError) -> Int { try record("read"); return 0 }
    func write(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        try record("write")
        if !log.withLock({ $0.adapterUp }) { throw SystemCallError(call: "write", errno: ENETDOWN) }
    }

    func ioctl(_ fd: Int32, request: UInt, value: Int32) throws(SystemCallError) {
        try record("ioctl")
        let wasUp = log.withLock { log in
            defer { log.adapterUp = true }
            return log.adapterUp
        }
        if wasUp { throw SystemCallError(call: "ioctl", errno: EALREADY) }
    }
    func close(_ fd: Int32) { log.withLock { $0.closed.append(fd) } }
    func listDirectory(_ path: String) -> [String] { adapters }
}
