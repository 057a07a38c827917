#if canImport(Glibc)
import Glibc
#endif

/// Why a source could not be opened or stopped working, in words a person can act on
/// (docs/troubleshooting.md expands each).
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// socket(AF_BLUETOOTH) failed with EAFNOSUPPORT: the kernel has no Bluetooth support.
    case noBluetoothInKernel
    /// bind failed with ENODEV: no adapter of that index; `existing` lists /sys/class/bluetooth.
    case noSuchAdapter(index: Int, existing: [String])
    /// EPERM or EACCES: raw, user and monitor channels need CAP_NET_RAW / CAP_NET_ADMIN.
    case permissionDenied(spec: String)
    /// EBUSY: the user channel needs the adapter down and not held by bluetoothd.
    case adapterBusy(index: Int)
    /// EBUSY from HCIDEVUP: another program holds the adapter through the user channel.
    case heldByUserChannel(index: Int)
    /// ENETDOWN on the first command: the adapter is down and beacontop could not bring it up
    /// (HCIDEVUP needs CAP_NET_ADMIN).
    case adapterDown(index: Int)
    /// ERFKILL: the radio is blocked by rfkill.
    case blockedByRFKill(index: Int)
    /// Any other failure: the source, and the call with its errno.
    case failed(spec: String, SystemCallError)
    /// The source does not carry a controller that takes commands (monitor channel, a file).
    case commandsNotAccepted(spec: String)
    /// The controller did not answer a command in time; `unframedBytes` arrived that framed no H4
    /// packet (a wrong baud rate, a noisy line, something that is no H4 controller).
    case commandTimedOut(command: String, seconds: Double, unframedBytes: Int = 0)
    /// The controller gave no credit for a command in time (Num_HCI_Command_Packets 0 in its
    /// answer to `withheldBy`, and no event granting any since): the command was never sent.
    case noCommandCredit(command: String, seconds: Double, withheldBy: String?)
    /// The source was stopped while a command waited.
    case closed(spec: String)
    /// The source was lost while a command waited, for `reason` (`the other end closed the
    /// connection`: a TCP port where something that is no controller accepts and hangs up).
    case lostBeforeAnswer(spec: String, reason: String)

    /// Maps a failed kernel-socket call to its case. `existing` is read only for ENODEV.
    public static func kernel(_ error: SystemCallError, spec: SourceSpec, existing: @autoclosure () -> [String]) -> TransportError {
        let index: Int
        if case .kernel(let adapter, _) = spec { index = adapter } else { index = 0 }
        switch error.errno {
        case EAFNOSUPPORT: return .noBluetoothInKernel
        case ENODEV: return .noSuchAdapter(index: index, existing: existing())
        case EPERM, EACCES: return .permissionDenied(spec: spec.description)
        case EBUSY: return .adapterBusy(index: index)
        case ENETDOWN: return .adapterDown(index: index)
        case ERFKILL: return .blockedByRFKill(index: index)
        default: return .failed(spec: spec.description, error)
        }
    }

    /// What `scan` and `advertise` say when they end while their controller is lost: nothing can
    /// be sent (it said 'could not disable scanning: tcp:... was closed', as if beacontop had failed).
    public static func notConnectedAtExit(_ source: String, _ activity: String) -> String {
        "\(source) is lost, so \(activity) could not be turned off; a controller that is still powered "
            + "goes on \(activity) until it is reset or beacontop starts on it again"
    }

    /// A kernel without Bluetooth, and what to use instead: a receiver can replay a capture file,
    /// `advertise` cannot (it offered one), so it names the H4 controllers alone.
    public static func kernelWithoutBluetooth(useInstead alternatives: String) -> String {
        "this kernel has no Bluetooth support (socket(AF_BLUETOOTH) failed with EAFNOSUPPORT): "
            + "load it with 'sudo modprobe bluetooth', or use \(alternatives)"
    }

    /// The description without the source's name, for a line that already starts with it (a
    /// reconnect line said `tcp:127.0.0.1:9000: tcp:127.0.0.1:9000: connect ...`).
    public var detail: String {
        if case .failed(_, let error) = self { return error.description }
        return description
    }

    public var description: String {
        switch self {
        case .noBluetoothInKernel:
            return Self.kernelWithoutBluetooth(useInstead: "an H4 source (serial:, tcp:, unix:) or a capture file")
        case .noSuchAdapter(let index, let existing):
            let list = existing.isEmpty ? "no adapters found in /sys/class/bluetooth" : "adapters present: " + existing.joined(separator: ", ")
            return "no Bluetooth adapter hci\(index) (ENODEV); \(list)"
        case .permissionDenied(let spec):
            return "no permission to use \(spec) (the HCI socket needs CAP_NET_RAW and CAP_NET_ADMIN): "
                + "run 'sudo setcap cap_net_raw,cap_net_admin+eip $(which beacontop)' once, or run as root"
        case .adapterBusy(let index):
            return "hci\(index) is busy (EBUSY): the user channel needs the adapter down and not held by bluetoothd; "
                + "run 'sudo systemctl stop bluetooth' and 'sudo hciconfig hci\(index) down', or use hci\(index):raw or hci\(index):monitor"
        case .heldByUserChannel(let index):
            return "hci\(index) is held by another program through the user channel (EBUSY): stop it, or listen with hci\(index):monitor"
        case .adapterDown(let index):
            return "hci\(index) is down (ENETDOWN) and beacontop may not bring it up (that needs CAP_NET_ADMIN): "
                + "run 'sudo hciconfig hci\(index) up' or 'bluetoothctl power on', or give beacontop the capability "
                + "('sudo setcap cap_net_raw,cap_net_admin+eip $(which beacontop)') and it brings the adapter up itself"
        case .blockedByRFKill(let index):
            return "hci\(index) is blocked by rfkill (ERFKILL): run 'rfkill unblock bluetooth'"
        case .failed(let spec, let error):
            return "\(spec): \(error)"
        case .commandsNotAccepted(let spec):
            return "\(spec) does not take commands (a monitor socket or a file only listens); scan with hci0, serial:, tcp: or unix:"
        case .commandTimedOut(let command, let seconds, let unframed):
            let timedOut = "the controller did not answer \(command) within \(seconds) s"
            // Bytes came, but none framed as H4: on a UART most often a baud rate the controller does not use.
            guard unframed > 0 else { return timedOut }
            return timedOut + "; \(unframed) byte\(unframed == 1 ? "" : "s") arrived that framed no H4 packet: check the baud rate (serial:PATH@BAUD) and that the other end speaks H4"
        case .noCommandCredit(let command, let seconds, let withheldBy):
            let since = withheldBy.map { " since its answer to \($0)" } ?? ""
            return "the controller took no command within \(seconds) s (Num_HCI_Command_Packets 0\(since)), so \(command) was not sent"
        case .closed(let spec):
            return "\(spec) was closed"
        case .lostBeforeAnswer(let spec, let reason):
            return "\(spec): lost (\(reason)) before the controller answered"
        }
    }
}
