#if canImport(Glibc)
import Glibc
#endif

/// How the bytes read from an open transport are cut into packets.
public enum TransportFraming: Sendable, Equatable {
    /// An H4 byte stream (UART, TCP, unix socket; also the raw and user kernel channels, whose
    /// every read is one indicator-prefixed packet): cut by `H4Framer`.
    case h4
    /// The kernel monitor channel: each read is a 6-byte header (opcode, adapter index, length)
    /// and one packet (Linux `include/net/bluetooth/hci_mon.h`).
    case monitor
}

/// An opened transport: its file descriptor and framing, and whether opening it powered the
/// adapter on (a raw channel on an adapter that was down).
public struct OpenTransport: Sendable, Equatable {
    public var fd: Int32
    public var framing: TransportFraming
    public var poweredOn = false
}

/// Opens the transport a spec names, through `SystemCalls`, and maps failures to `TransportError`.
public struct TransportOpener: Sendable {
    /// AF_BLUETOOTH, BTPROTO_HCI, SOL_HCI, HCI_FILTER (Linux `include/net/bluetooth/bluetooth.h`, `hci.h`).
    static let afBluetooth: Int32 = 31
    static let btprotoHCI: Int32 = 1
    static let solHCI: Int32 = 0
    static let hciFilter: Int32 = 2
    /// The monitor channel binds to no adapter (HCI_DEV_NONE).
    static let hciDevNone: UInt16 = 0xFFFF
    /// HCIDEVUP, `_IOW('H', 201, int)` (Linux `include/net/bluetooth/hci_sock.h`).
    static let hciDevUp: UInt = 0x4004_48C9

    public let calls: any SystemCalls
    public var sysfsDirectory = "/sys/class/bluetooth"

    public init(calls: any SystemCalls = LinuxSystemCalls()) {
        self.calls = calls
    }

    public func open(_ spec: SourceSpec) throws(TransportError) -> OpenTransport {
        switch spec {
        case .kernel(let adapter, let channel):
            return try openKernel(spec: spec, adapter: adapter, channel: channel)
        case .serial(let path, let baud, let flow):
            do { return OpenTransport(fd: try calls.openSerial(path: path, baudRate: baud, flowControl: flow), framing: .h4) }
            catch { throw Self.streamError(error, spec: spec) }
        case .tcp(let host, let port):
            do { return OpenTransport(fd: try calls.connectTCP(host: host, port: port), framing: .h4) }
            catch { throw Self.streamError(error, spec: spec) }
        case .unix(let path):
            do { return OpenTransport(fd: try calls.connectUnix(path: path), framing: .h4) }
            catch { throw Self.streamError(error, spec: spec) }
        case .file, .simulation, .broker:
            throw .commandsNotAccepted(spec: spec.description)
        }
    }

    private static func streamError(_ error: SystemCallError, spec: SourceSpec) -> TransportError {
        if error.errno == EACCES || error.errno == EPERM {
            if case .serial(let path, _, _) = spec {
                return .failed(spec: spec.description, SystemCallError(call: "open \(path) (add yourself to the dialout group: sudo usermod -aG dialout $USER)", errno: error.errno))
            }
        }
        return .failed(spec: spec.description, error)
    }

    /// socket, then (raw only) the event filter, then bind to `sockaddr_hci { family, dev, channel }`,
    /// then (raw only) power the adapter on. The monitor channel binds to no adapter, so a missing
    /// one is looked up in sysfs: the kernel would let it listen to nothing.
    private func openKernel(spec: SourceSpec, adapter: Int, channel: KernelHCIChannel) throws(TransportError) -> OpenTransport {
        if channel == .monitor {
            let present = adapters()
            guard present.contains("hci\(adapter)") else { throw .noSuchAdapter(index: adapter, existing: present) }
        }
        let fd: Int32
        do {
            fd = try calls.socket(domain: Self.afBluetooth, type: Int32(SOCK_RAW.rawValue | SOCK_CLOEXEC.rawValue), protocol: Self.btprotoHCI)
        } catch {
            throw TransportError.kernel(error, spec: spec, existing: adapters())
        }
        do {
            if channel == .raw {
                try calls.setsockopt(fd, level: Self.solHCI, name: Self.hciFilter, value: Self.eventFilter)
            }
            let device = channel == .monitor ? Self.hciDevNone : UInt16(adapter)
            try calls.bind(fd, address: Self.socketAddress(device: device, channel: channel))
        } catch {
            calls.close(fd)
            throw TransportError.kernel(error, spec: spec, existing: adapters())
        }
        var poweredOn = false
        if channel == .raw {
            do { poweredOn = try powerOn(fd, adapter: adapter, spec: spec) } catch {
                calls.close(fd)
                throw error
            }
        }
        return OpenTransport(fd: fd, framing: channel == .monitor ? .monitor : .h4, poweredOn: poweredOn)
    }

    /// Without bluetoothd nothing powers an adapter on: it starts down (the kernel powers a new one on
    /// for its set-up and off again 2 s later, HCI_AUTO_OFF), binding a raw socket to it still works,
    /// and the first command written fails with ENETDOWN. HCIDEVUP brings it up, and cancels a pending
    /// auto-off; it needs CAP_NET_ADMIN (EPERM without: an adapter that is down then fails at the first
    /// command, and that error says what to do). True when the adapter was down and is up now.
    private func powerOn(_ fd: Int32, adapter: Int, spec: SourceSpec) throws(TransportError) -> Bool {
        do throws(SystemCallError) {
            try calls.ioctl(fd, request: Self.hciDevUp, value: Int32(adapter))
            return true
        } catch {
            switch error.errno {
            case EALREADY, EPERM, EACCES: return false
            case EBUSY: throw .heldByUserChannel(index: adapter)
            default: throw TransportError.kernel(error, spec: spec, existing: adapters())
            }
        }
    }

    /// `struct sockaddr_hci { sa_family_t hci_family; unsigned short hci_dev, hci_channel; }`.
    static func socketAddress(device: UInt16, channel: KernelHCIChannel) -> [UInt8] {
        [UInt8(afBluetooth), 0, UInt8(device & 0xFF), UInt8(device >> 8), UInt8(channel.rawValue & 0xFF), UInt8(channel.rawValue >> 8)]
    }

    /// `struct hci_filter { u32 type_mask; u32 event_mask[2]; u16 opcode; }` padded to 16 bytes:
    /// events only (type bit 4), every event code, any opcode. A raw socket gets nothing without it.
    static let eventFilter: [UInt8] = [0x10, 0, 0, 0] + [UInt8](repeating: 0xFF, count: 8) + [0, 0, 0, 0]

    /// The adapters the kernel knows (`hci0`, `hci1`, ...), for the "no such adapter" message.
    public func adapters() -> [String] {
        calls.listDirectory(sysfsDirectory).filter { $0.hasPrefix("hci") && !$0.contains(":") }
    }
}
