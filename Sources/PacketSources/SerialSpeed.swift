#if canImport(Glibc)
import Glibc
#endif

/// The UART speeds termios knows by name.
public enum SerialSpeed {
    public static let supported = [9600, 19200, 38400, 57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000, 2000000, 3000000, 4000000]

    public static func termiosCode(forBaud baud: Int) -> speed_t? {
        switch baud {
        case 9600: speed_t(B9600)
        case 19200: speed_t(B19200)
        case 38400: speed_t(B38400)
        case 57600: speed_t(B57600)
        case 115200: speed_t(B115200)
        case 230400: speed_t(B230400)
        case 460800: speed_t(B460800)
        case 500000: speed_t(B500000)
        case 576000: speed_t(B576000)
        case 921600: speed_t(B921600)
        case 1000000: speed_t(B1000000)
        case 1152000: speed_t(B1152000)
        case 1500000: speed_t(B1500000)
        case 2000000: speed_t(B2000000)
        case 3000000: speed_t(B3000000)
        case 4000000: speed_t(B4000000)
        default: nil
        }
    }
}
