import CMosquitto
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The network thread behind `MQTTClient` and the state it shares with publishing threads.
///
/// Locks: `outbox` is held while calling `mosquitto_publish`/`mosquitto_subscribe`, so buffered
/// messages go out before newer ones; libmosquitto's callbacks never take it (they run inside
/// `mosquitto_loop` and touch only `callbacks`), so no lock order can close a cycle.
final class MQTTConnectionLoop: Sendable {
    let options: MQTTClientOptions
    let broker: String
    private let handle: MosquittoHandle
    private let continuation: MQTTEventEmitter
    private let callbacks: MosquittoCallbacks
    private let outbox: Mutex<Outbox>
    private let control = Mutex(Control())
    private let finished = DispatchSemaphore(value: 0)

    private struct Outbox {
        var connected = false
        var stopped = false
        var buffer: MQTTOutgoingBuffer
        var subscriptions: [(filter: String, qos: MQTTQoS)] = []
        var published = 0
    }

    private struct Control {
        var started = false
        var stopRequested = false
        var drainTimeout = 2.0
        var cleanedUp = false
        var firstOutcome: MQTTConnectionFailure??
        /// A stopping owner waits for what it published: retry a lost broker every half second
        /// instead of after the back-off's delay (up to 30 s).
        var hurry = false
        var connects = 0
        var connected = false
        var failures = 0
        var lastFailure: String?
    }

    init(options: MQTTClientOptions, continuation: MQTTEventEmitter) throws(MQTTClientError) {
        self.options = options
        broker = options.endpoint.description
        self.continuation = continuation
        try Self.validate(options)
        callbacks = MosquittoCallbacks(emitter: continuation)
        outbox = Mutex(Outbox(buffer: MQTTOutgoingBuffer(messageLimit: options.bufferMessageLimit, byteLimit: options.bufferByteLimit)))
        MosquittoLibrary.retain()
        guard let pointer = mosquitto_new(options.clientID, options.cleanSession, Unmanaged.passUnretained(callbacks).toOpaque()) else {
            MosquittoLibrary.release()
            throw MQTTClientError("cannot create an MQTT client for \(broker): \(String(cString: strerror(errno)))")
        }
        handle = MosquittoHandle(pointer: pointer)
        do {
            try configure()
        } catch {
            mosquitto_destroy(pointer)
            MosquittoLibrary.release()
            throw error
        }
    }

    private static func validate(_ options: MQTTClientOptions) throws(MQTTClientError) {
        guard !options.clientID.isEmpty else { throw MQTTClientError("the MQTT client id is empty") }
        guard options.keepAlive >= 5, options.keepAlive <= 65535 else {
            throw MQTTClientError("keep-alive \(options.keepAlive) s is out of range (5 to 65535)")
        }
        if let tls = options.tls {
            guard options.endpoint.tls else { throw MQTTClientError("TLS files given for \(options.endpoint); use mqtts://") }
            for (what, path) in [("CA file", tls.caFile), ("client certificate", tls.certificateFile), ("client key", tls.keyFile)] {
                if let path, !FileManager.default.isReadableFile(atPath: path) {
                    throw MQTTClientError("TLS \(what) '\(path)' cannot be read")
                }
            }
            guard (tls.certificateFile == nil) == (tls.keyFile == nil) else {
                throw MQTTClientError("a TLS client certificate needs its key, and a key its certificate")
            }
        }
    }

    private func configure() throws(MQTTClientError) {
        let mosq = handle.pointer
        mosquitto_threaded_set(mosq, true)
        mosquitto_int_option(mosq, MOSQ_OPT_TCP_NODELAY, 1)
        mosquitto_max_inflight_messages_set(mosq, UInt32(max(1, options.maxInflight)))
        if let username = options.endpoint.username {
            let rc = mosquitto_username_pw_set(mosq, username, options.endpoint.password)
            guard rc == 0 else { throw MQTTClientError("user name rejected: \(String(cString: mosquitto_strerror(rc)))") }
        }
        if options.endpoint.tls {
            let tls = options.tls ?? MQTTTLSFiles()
            if tls.caFile == nil { mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1) }
            let rc = mosquitto_tls_set(mosq, tls.caFile, tls.caFile == nil ? "/etc/ssl/certs" : nil, tls.certificateFile, tls.keyFile, nil)
            guard rc == 0 else { throw MQTTClientError("TLS set-up failed: \(String(cString: mosquitto_strerror(rc)))") }
        }
        if let will = options.will {
            let rc = will.payload.withUnsafeBytes { bytes in
                mosquitto_will_set(mosq, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos.rawValue, will.retain)
            }
            guard rc == 0 else { throw MQTTClientError("last will on '\(will.topic)' rejected: \(String(cString: mosquitto_strerror(rc)))") }
        }
        MosquittoCallbacks.install(on: mosq)
    }

    func start() {
        let first = control.withLock { state -> Bool in
            guard !state.started, !state.stopRequested else { return false }
            state.started = true
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in run() }
        thread.name = "mqtt \(broker)"
        thread.start()
    }

    func subscribe(_ filter: String, qos: MQTTQoS) {
        outbox.withLock { box in
            box.subscriptions.append((filter, qos))
            if box.connected { mosquitto_subscribe(handle.pointer, nil, filter, qos.rawValue) }
        }
    }

    func publish(_ message: MQTTOutgoingMessage) -> MQTTPublishOutcome {
        if let problem = MQTTTopicRules.problem(publishing: message.topic) { return .rejected(problem) }
        if message.payload.count > MQTTTopicRules.maximumPayload { return .rejected("payload of \(message.payload.count) bytes is over MQTT's limit") }
        return outbox.withLock { box in
            if box.stopped { return .rejected("client stopped") }
            if !box.connected || !box.buffer.isEmpty {
                box.buffer.append(message, at: Self.monotonic())
                return .buffered
            }
            let rc = send(message, mid: nil)
            switch rc {
            case 0:
                box.published += 1
                return .sent
            case Int32(MOSQ_ERR_NO_CONN.rawValue), Int32(MOSQ_ERR_CONN_LOST.rawValue):
                box.buffer.append(message, at: Self.monotonic())
                return .buffered
            default:
                return .rejected(String(cString: mosquitto_strerror(rc)))
            }
        }
    }

    private func send(_ message: MQTTOutgoingMessage, mid: UnsafeMutablePointer<Int32>?) -> Int32 {
        message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle.pointer, mid, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos.rawValue, message.retain)
        }
    }

    var statistics: MQTTClientStatistics {
        var stats = MQTTClientStatistics()
        outbox.withLock { box in
            stats.published = box.published
            stats.buffered = box.buffer.count
            stats.dropped = box.buffer.dropped
            stats.droppedQoS1 = box.buffer.droppedQoS1
            stats.droppedStale = box.buffer.droppedStale
        }
        control.withLock { state in
            stats.connects = state.connects
            stats.connected = state.connected
            stats.failures = state.failures
            stats.lastFailure = state.lastFailure
        }
        let counts = callbacks.counts
        stats.confirmed = counts.confirmed
        stats.received = counts.received
        stats.receivedDropped = counts.receivedDropped
        return stats
    }

    func waitForFirstConnection(timeout: Double) -> MQTTConnectionFailure? {
        let deadline = Self.monotonic() + timeout
        while true {
            if let outcome = control.withLock({ $0.firstOutcome }) { return outcome }
            if Self.monotonic() >= deadline {
                return MQTTConnectionFailure(broker: broker, reason: "no answer within \(timeout) s")
            }
            usleep(5_000)
        }
    }

    /// Waits until the broker has acknowledged as many subscriptions as were asked for (true), at
    /// most `timeout` seconds (false).
    func waitForSubscriptions(timeout: Double) -> Bool {
        let deadline = Self.monotonic() + timeout
        let wanted = outbox.withLock { $0.subscriptions.count }
        while callbacks.counts.subscriptionsAcknowledged < wanted {
            if Self.monotonic() >= deadline { return false }
            usleep(5_000)
        }
        return true
    }

    /// Retries a lost broker every half second from now on (see `Control.hurry`).
    func hurryReconnect() { control.withLock { $0.hurry = true } }

    func stop(drainTimeout: Double) {
        let (started, alreadyClean) = control.withLock { state in
            state.stopRequested = true
            state.drainTimeout = drainTimeout
            return (state.started, state.cleanedUp)
        }
        if alreadyClean { return }
        if started {
            finished.wait()
            finished.signal() // later callers of stop() pass straight through
        } else {
            cleanUp(wasConnected: false)
        }
    }

    // MARK: the network thread

    private func run() {
        let mosq = handle.pointer
        var attempt = 0
        var socketOpen = false
        var accepted = false
        var nextAttempt = 0.0
        while !control.withLock({ $0.stopRequested }) {
            let now = Self.monotonic()
            if !socketOpen {
                if control.withLock({ $0.hurry }) { nextAttempt = min(nextAttempt, now + 0.5) }
                if now < nextAttempt {
                    usleep(UInt32(min(0.05, nextAttempt - now) * 1_000_000))
                    continue
                }
                callbacks.resetForAttempt()
                errno = 0
                let rc = mosquitto_connect(mosq, options.endpoint.host, Int32(options.endpoint.port), Int32(options.keepAlive))
                let cause = errno
                guard rc == 0 else {
                    attempt += 1
                    nextAttempt = now + failed(reason: MosquittoLibrary.reason(code: rc, errnoValue: cause, connack: nil, log: callbacks.lastLog), attempt: attempt, established: false)
                    continue
                }
                socketOpen = true
                accepted = false
            }
            errno = 0
            var rc = mosquitto_loop(mosq, 100, 1)
            // mosquitto_loop reads one QoS 0 packet per call, behind a select(): at 20,000 readings
            // a second that select was most of the network thread. Read on while bytes wait.
            while rc == 0, Self.bytesWaiting(mosquitto_socket(mosq)) {
                rc = mosquitto_loop_read(mosq, 1)
            }
            let cause = errno
            let connack = callbacks.takeConnack()
            if connack == 0 {
                accepted = true
                attempt = 0
                connected()
            }
            if rc != 0 {
                socketOpen = false
                outbox.withLock { $0.connected = false }
                control.withLock { $0.connected = false }
                let reason = MosquittoLibrary.reason(code: rc, errnoValue: cause, connack: connack, log: callbacks.lastLog)
                if accepted {
                    attempt = 1
                    nextAttempt = Self.monotonic() + failed(reason: reason, attempt: attempt, established: true)
                } else {
                    attempt += 1
                    nextAttempt = Self.monotonic() + failed(reason: reason, attempt: attempt, established: false)
                }
                accepted = false
            }
        }
        cleanUp(wasConnected: socketOpen && accepted)
        finished.signal()
    }

    /// Records a failure, tells the consumer, and returns the delay before the next attempt.
    private func failed(reason: String, attempt: Int, established: Bool) -> Double {
        let delay = options.backoff.delay(attempt: attempt)
        control.withLock { state in
            state.failures += 1
            state.lastFailure = reason
            if state.firstOutcome == nil { state.firstOutcome = .some(MQTTConnectionFailure(broker: broker, reason: reason)) }
        }
        continuation.yield(.status(established
            ? .lost(broker: broker, reason: reason, retryIn: delay)
            : .connectFailed(broker: broker, attempt: attempt, reason: reason, retryIn: delay)))
        return delay
    }

    /// The broker accepted us: subscribe, say we are online, then send what waited, in order,
    /// less what expired while it waited.
    private func connected() {
        let mosq = handle.pointer
        control.withLock { state in
            state.connects += 1
            state.connected = true
            if state.firstOutcome == nil { state.firstOutcome = .some(nil) }
        }
        let stale = outbox.withLock { box in
            box.connected = true
            for subscription in box.subscriptions {
                mosquitto_subscribe(mosq, nil, subscription.filter, subscription.qos.rawValue)
            }
            if let birth = options.birth, send(birth, mid: nil) == 0 { box.published += 1 }
            let staleBefore = box.buffer.droppedStale
            let waiting = box.buffer.takeAll(at: Self.monotonic())
            for (index, entry) in waiting.enumerated() {
                guard send(entry.message, mid: nil) == 0 else {
                    box.buffer.putBack(Array(waiting[index...]))
                    box.connected = false
                    break
                }
                box.published += 1
            }
            return box.buffer.droppedStale - staleBefore
        }
        continuation.yield(.status(.connected(broker: broker, stale: stale)))
    }

    /// Publishes the offline status, waits for it to be acknowledged, disconnects cleanly, frees
    /// the handle. Runs once, on the network thread or (never started) on the stopping thread.
    private func cleanUp(wasConnected: Bool) {
        let mosq = handle.pointer
        outbox.withLock { box in
            box.stopped = true
            box.connected = false
        }
        let drain = control.withLock { $0.drainTimeout }
        if wasConnected {
            var finalMid: Int32 = 0
            var waitFor: Int32?
            if let will = options.will, send(will, mid: &finalMid) == 0 { waitFor = finalMid }
            let deadline = Self.monotonic() + drain
            let published = outbox.withLock { $0.published }
            while Self.monotonic() < deadline {
                if let mid = waitFor, callbacks.isConfirmed(mid) { break }
                // Without a will to wait for: until every message is confirmed. Written is not
                // enough: QoS 1 messages past the in-flight limit wait inside libmosquitto unwritten.
                if waitFor == nil, !mosquitto_want_write(mosq), callbacks.counts.confirmed >= published { break }
                if mosquitto_loop(mosq, 20, 1) != 0 { break }
            }
            mosquitto_disconnect(mosq)
            for _ in 0..<25 where mosquitto_loop(mosq, 20, 1) == 0 {}
        }
        mosquitto_destroy(mosq)
        MosquittoLibrary.release()
        control.withLock { state in
            state.cleanedUp = true
            state.connected = false
        }
        continuation.yield(.status(.stopped(broker: broker)))
        continuation.finish()
    }

    private static func bytesWaiting(_ socket: Int32) -> Bool {
        guard socket >= 0 else { return false }
        var count: Int32 = 0
        return ioctl(socket, UInt(FIONREAD), &count) == 0 && count > 0
    }

    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
