import CMosquitto
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// libmosquitto's process-wide set-up, counted: `mosquitto_lib_init` is not thread-safe and
/// `mosquitto_lib_cleanup` frees OpenSSL's state, so the first client initialises and the last
/// one to go cleans up.
enum MosquittoLibrary {
    private static let users = Mutex(0)

    static func retain() {
        users.withLock { count in
            if count == 0 { mosquitto_lib_init() }
            count += 1
        }
    }

    static func release() {
        users.withLock { count in
            count -= 1
            if count == 0 { mosquitto_lib_cleanup() }
        }
    }

    /// Why a libmosquitto call failed, in words a person can act on. `errnoValue` is read right
    /// after the call (MOSQ_ERR_ERRNO leaves the cause there); `connack` is the broker's refusal
    /// code when it answered CONNECT with one; `log` is the library's last error line (TLS
    /// failures say what was wrong with the certificate only there).
    static func reason(code: Int32, errnoValue: Int32, connack: Int32?, log: String?) -> String {
        if let connack, connack != 0 { return refusal(connack) }
        let base: String
        switch code {
        case Int32(MOSQ_ERR_ERRNO.rawValue):
            base = errnoValue == 0 ? "connection closed" : String(cString: strerror(errnoValue)).lowercased()
        case Int32(MOSQ_ERR_EAI.rawValue): base = "host name not found"
        case Int32(MOSQ_ERR_TLS.rawValue): base = "TLS handshake failed"
        case Int32(MOSQ_ERR_CONN_LOST.rawValue): base = "connection lost"
        case Int32(MOSQ_ERR_NO_CONN.rawValue): base = "not connected"
        case Int32(MOSQ_ERR_KEEPALIVE.rawValue): base = "no answer within the keep-alive time"
        case Int32(MOSQ_ERR_PROTOCOL.rawValue): base = "protocol error (is this an MQTT broker?)"
        default: base = String(cString: mosquitto_strerror(code)).lowercased()
        }
        guard let log, !log.isEmpty, code == Int32(MOSQ_ERR_TLS.rawValue) || code == Int32(MOSQ_ERR_PROTOCOL.rawValue) else { return base }
        return "\(base): \(log)"
    }

    /// CONNACK return codes, MQTT 3.1.1 section 3.2.2.3.
    static func refusal(_ code: Int32) -> String {
        switch code {
        case 1: "broker refused the connection: unacceptable protocol version"
        case 2: "broker refused the connection: client id rejected"
        case 3: "broker refused the connection: server unavailable"
        case 4: "broker refused the connection: bad user name or password"
        case 5: "broker refused the connection: not authorised (check the user name and password)"
        default: "broker refused the connection: \(String(cString: mosquitto_connack_string(code)).lowercased())"
        }
    }
}

/// The library's client handle. libmosquitto guards its own state with mutexes once
/// `mosquitto_threaded_set` is on, so publishing from the caller's thread while the network thread
/// reads is what it is built for; the pointer itself is never freed before that thread has ended.
struct MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
