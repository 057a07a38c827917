import CMosquitto
import PacketSources
import Foundation
import Synchronization

/// What libmosquitto's callbacks report, collected for the network thread (which reads it after
/// each `mosquitto_loop`) and for statistics. Callbacks run inside `mosquitto_loop` on the network
/// thread, with libmosquitto's callback mutex held: they only record and hand messages over.
final class MosquittoCallbacks: Sendable {
    private let emitter: MQTTEventEmitter
    private let state = Mutex(State())

    struct Counts: Sendable {
        var confirmed = 0
        var received = 0
        var receivedDropped = 0
        /// SUBACKs received (every subscription of every connection).
        var subscriptionsAcknowledged = 0
    }

    private struct State {
        var connack: Int32?
        var lastLog: String?
        var counts = Counts()
        /// Message ids written or acknowledged since the last attempt (only the final status's
        /// id is ever asked about; kept small by clearing per attempt and capping).
        var confirmedMids: Set<Int32> = []
    }

    init(emitter: MQTTEventEmitter) {
        self.emitter = emitter
    }

    static func install(on mosq: OpaquePointer) {
        mosquitto_connect_callback_set(mosq) { _, context, code in
            guard let context else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(context).takeUnretainedValue().state.withLock { $0.connack = code }
        }
        mosquitto_publish_callback_set(mosq) { _, context, mid in
            guard let context else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(context).takeUnretainedValue().state.withLock { state in
                state.counts.confirmed += 1
                if state.confirmedMids.count > 4096 { state.confirmedMids.removeAll(keepingCapacity: true) }
                state.confirmedMids.insert(mid)
            }
        }
        mosquitto_subscribe_callback_set(mosq) { _, context, _, _, _ in
            guard let context else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(context).takeUnretainedValue().state.withLock { $0.counts.subscriptionsAcknowledged += 1 }
        }
        mosquitto_message_callback_set(mosq) { _, context, message in
            guard let context, let message else { return }
            Unmanaged<MosquittoCallbacks>.fromOpaque(context).takeUnretainedValue().deliver(message.pointee)
        }
        mosquitto_log_callback_set(mosq) { _, context, level, text in
            guard let context, let text, level & Int32(MOSQ_LOG_ERR) != 0 else { return }
            let line = String(cString: text)
            Unmanaged<MosquittoCallbacks>.fromOpaque(context).takeUnretainedValue().state.withLock { $0.lastLog = line }
        }
    }

    private func deliver(_ message: mosquitto_message) {
        let topic = message.topic.map { String(cString: $0) } ?? ""
        var payload: [UInt8] = []
        if let bytes = message.payload, message.payloadlen > 0 {
            payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(message.payloadlen)))
        }
        let incoming = MQTTIncomingMessage(
            topic: topic, payload: payload, qos: message.qos >= 1 ? .atLeastOnce : .atMostOnce,
            retained: message.retain, receivedAt: SourceInbox.wallClock()
        )
        let accepted = emitter.yield(.message(incoming))
        state.withLock { state in
            state.counts.received += 1
            if !accepted { state.counts.receivedDropped += 1 }
        }
    }

    func resetForAttempt() {
        state.withLock { state in
            state.connack = nil
            state.lastLog = nil
        }
    }

    /// The CONNACK code seen during the last `mosquitto_loop`, cleared by reading.
    func takeConnack() -> Int32? {
        state.withLock { state in
            defer { state.connack = nil }
            return state.connack
        }
    }

    var lastLog: String? { state.withLock { $0.lastLog } }
    var counts: Counts { state.withLock { $0.counts } }

    func isConfirmed(_ mid: Int32) -> Bool { state.withLock { $0.confirmedMids.contains(mid) } }
}
