import Glibc
import TestFixtures
import Testing
@testable import PacketSources

/// Each kernel HCI socket failure, forced through fake system calls, gives its message.
@Suite("Kernel HCI socket errors")
struct KernelSocketErrorTests {
    func openFailure(_ spec: String, failing: [String: Int32], adapters: [String] = ["hci0"]) throws -> (TransportError, FakeSystemCalls) {
        let calls = FakeSystemCalls(failing: failing, adapters: adapters)
        let parsed = try SourceSpec(parsing: spec)
        do throws(TransportError) {
            _ = try TransportOpener(calls: calls).open(parsed)
        } catch {
            return (error, calls)
        }
        throw HarnessError(description: "\(spec) opened despite \(failing)")
    }

    @Test("EAFNOSUPPORT: no Bluetooth in the kernel")
    func noBluetooth() throws {
        let (error, _) = try openFailure("hci0", failing: ["socket": EAFNOSUPPORT])
        #expect(error == .noBluetoothInKernel)
        #expect(error.description.contains("this kernel has no Bluetooth support"))
        #expect(error.description.contains("modprobe bluetooth"))
    }

    @Test("ENODEV: no such adapter, listing the ones in /sys/class/bluetooth")
    func noSuchAdapter() throws {
        let (error, calls) = try openFailure("hci2", failing: ["bind": ENODEV], adapters: ["hci0", "hci1", "hci0:3"])
        #expect(error.description == "no Bluetooth adapter hci2 (ENODEV); adapters present: hci0, hci1")
        #expect(calls.log.withLock { $0.closed } == [42], "the socket is closed after a failed bind")
        let (none, _) = try openFailure("hci0", failing: ["bind": ENODEV], adapters: [])
        #expect(none.description == "no Bluetooth adapter hci0 (ENODEV); no adapters found in /sys/class/bluetooth")
    }

    @Test("EPERM and EACCES: say setcap or root", arguments: [EPERM, EACCES])
    func permission(errno: Int32) throws {
        for call in ["socket", "bind", "setsockopt"] {
            let (error, _) = try openFailure("hci0", failing: [call: errno])
            #expect(error == .permissionDenied(spec: "hci0:raw"))
            #expect(error.description.contains("sudo setcap cap_net_raw,cap_net_admin+eip $(which beacontop)"))
            #expect(error.description.contains("run as root"))
        }
    }

    @Test("EBUSY: the user channel needs the adapter down and free of bluetoothd")
    func busy() throws {
        let (error, _) = try openFailure("hci0:user", failing: ["bind": EBUSY])
        #expect(error == .adapterBusy(index: 0))
        #expect(error.description.contains("hci0 is busy"))
        #expect(error.description.contains("systemctl stop bluetooth"))
    }

    /// The first command's error, on a raw source that opened.
    func firstCommandFailure(_ calls: FakeSystemCalls, spec: String = "hci1") async throws -> TransportError {
        let source = LiveSource(spec: try SourceSpec(parsing: spec), opener: TransportOpener(calls: calls))
        try source.start(into: SourceInbox())
        defer { source.stop() }
        do {
            _ = try await source.execute(.leSetScanEnable(true, filterDuplicates: false))
        } catch let error as TransportError {
            return error
        }
        throw HarnessError(description: "the command went through")
    }

    @Test("ENETDOWN at the first command (binding works): the adapter is down and HCIDEVUP was refused")
    func down() async throws {
        let calls = FakeSystemCalls(failing: ["ioctl": EPERM], adapterUp: false)
        let error = try await firstCommandFailure(calls)
        #expect(error == .adapterDown(index: 1))
        #expect(error.description.contains("hciconfig hci1 up"))
        #expect(error.description.contains("CAP_NET_ADMIN"))
        #expect(calls.log.withLock { $0.calls }.filter { $0 != "waitReadable" } == ["socket", "setsockopt", "bind", "ioctl", "write"])
    }

    @Test("a raw source brings a down adapter up (HCIDEVUP) and says so; an adapter already up is left alone")
    func powersOn() async throws {
        let down = FakeSystemCalls(adapterUp: false)
        let source = LiveSource(spec: .kernel(adapter: 0, channel: .raw), opener: TransportOpener(calls: down))
        let inbox = SourceInbox()
        try source.start(into: inbox)
        let statuses = await inbox.collect(from: source) { $0.notices.count >= 2 }.notices
        source.stop()
        #expect(statuses == [.connected(source: "hci0:raw"), .poweredOn(source: "hci0:raw")])
        #expect(statuses.last?.description.contains("brought it up") == true)
        #expect(try TransportOpener(calls: FakeSystemCalls(adapterUp: false)).open(.kernel(adapter: 0, channel: .raw)).poweredOn)
        #expect(try !TransportOpener(calls: FakeSystemCalls()).open(.kernel(adapter: 0, channel: .raw)).poweredOn)
        // The user channel needs the adapter down: nothing powers it on there.
        let user = FakeSystemCalls(adapterUp: false)
        #expect(try !TransportOpener(calls: user).open(.kernel(adapter: 0, channel: .user)).poweredOn)
        #expect(!user.log.withLock { $0.calls }.contains("ioctl"))
    }

    @Test("EPERM at the first command: an unprivileged raw socket may only read; say setcap")
    func commandNotPermitted() async throws {
        let error = try await firstCommandFailure(FakeSystemCalls(failing: ["ioctl": EPERM, "write": EPERM]), spec: "hci0")
        #expect(error == .permissionDenied(spec: "hci0:raw"))
        #expect(error.description.contains("sudo setcap cap_net_raw,cap_net_admin+eip $(which beacontop)"))
    }

    @Test("HCIDEVUP's ERFKILL and EBUSY (another program's user channel) stop the opening with advice")
    func powerOnRefused() throws {
        let (rfkill, calls) = try openFailure("hci0", failing: ["ioctl": ERFKILL])
        #expect(rfkill == .blockedByRFKill(index: 0))
        #expect(calls.log.withLock { $0.closed } == [42])
        let (busy, _) = try openFailure("hci0", failing: ["ioctl": EBUSY])
        #expect(busy == .heldByUserChannel(index: 0))
        #expect(busy.description.contains("hci0:monitor"))
    }

    @Test("a monitor source on a missing adapter fails at once, naming the ones present")
    func monitorOnMissingAdapter() throws {
        let (error, calls) = try openFailure("hci1:monitor", failing: [:], adapters: ["hci0"])
        #expect(error.description == "no Bluetooth adapter hci1 (ENODEV); adapters present: hci0")
        #expect(calls.log.withLock { $0.calls }.isEmpty, "nothing opened")
    }

    @Test("ERFKILL and unexpected errnos keep the call and the system's words")
    func others() throws {
        let (rfkill, _) = try openFailure("hci0", failing: ["bind": ERFKILL])
        #expect(rfkill.description.contains("rfkill unblock bluetooth"))
        let (other, _) = try openFailure("hci0", failing: ["socket": EMFILE])
        #expect(other.description.hasPrefix("hci0:raw: socket: Too many open files"))
    }

    @Test("raw sets the event filter then binds to the adapter; monitor binds to no adapter; user has no filter")
    func bindings() throws {
        let raw = FakeSystemCalls()
        let opened = try TransportOpener(calls: raw).open(.kernel(adapter: 3, channel: .raw))
        #expect(opened == OpenTransport(fd: 42, framing: .h4))
        raw.log.withLock { log in
            #expect(log.calls == ["socket", "setsockopt", "bind", "ioctl"])
            #expect(log.bound == [31, 0, 3, 0, 0, 0])
            #expect(log.socketOptions.first?.level == 0)
            #expect(log.socketOptions.first?.name == 2)
            #expect(log.socketOptions.first?.value.prefix(4) == [0x10, 0, 0, 0])
        }
        let monitor = FakeSystemCalls(adapters: ["hci0"])
        #expect(try TransportOpener(calls: monitor).open(.kernel(adapter: 0, channel: .monitor)).framing == .monitor)
        monitor.log.withLock { #expect($0.calls == ["socket", "bind"]); #expect($0.bound == [31, 0, 0xFF, 0xFF, 2, 0]) }
        let user = FakeSystemCalls()
        _ = try TransportOpener(calls: user).open(.kernel(adapter: 1, channel: .user))
        user.log.withLock { #expect($0.calls == ["socket", "bind"]); #expect($0.bound == [31, 0, 1, 0, 1, 0]) }
    }

    @Test("a serial port without permission suggests the dialout group")
    func serialPermission() throws {
        let (error, _) = try openFailure("serial:/dev/ttyACM0", failing: ["openSerial": EACCES])
        #expect(error.description.contains("dialout"))
    }

    @Test("a monitor source refuses commands with a reason")
    func monitorTakesNoCommands() async throws {
        let source = LiveSource(spec: .kernel(adapter: 0, channel: .monitor), opener: TransportOpener(calls: FakeSystemCalls()))
        await #expect(throws: TransportError.commandsNotAccepted(spec: "hci0:monitor")) {
            _ = try await source.execute(.reset)
        }
    }
}
