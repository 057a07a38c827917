import Foundation
import HCI
import Synchronization

/// Something that yields a capture's packets in order: `CaptureReader` for files, an array in tests.
public protocol ReplayPacketReader {
    /// The next packet; nil at the end. Throws for a bad record (`recoverable` says whether
    /// reading can go on after it).
    mutating func nextPacket() throws -> HCIPacket?
    /// Why the reader stopped, once `nextPacket()` returned nil ("torn final record at byte ...").
    var endNote: String? { get }
}

/// Errors a reader may throw that do not end the file: one bad record, skipped.
public protocol RecoverableReplayError: Error {
    var isRecoverable: Bool { get }
}

/// Replays a capture as a source: the same events a live source gives, paced by the capture's
/// own timestamps (`ReplayPacer`), at a speed, looping, cut to `--from/--to`, and driven by
/// `ReplayControl`. Packets keep their capture timestamps (time is data), shifted on each loop
/// so time never runs backwards for ranging.
public final class ReplaySource: Sendable {
    public let name: String
    public let events: AsyncStream<SourceEvent>
    public let control: ReplayControl
    private let continuation: AsyncStream<SourceEvent>.Continuation
    private let options: ReplayOptions
    private let makeReader: @Sendable () throws -> any ReplayPacketReader
    private let now: @Sendable () -> Double
    private let stopped = Mutex(false)
    /// The first reader, opened by `start()` so an unreadable file fails before anything runs.
    private let firstReader = Mutex<ReaderBox?>(nil)

    public init(
        name: String, options: ReplayOptions = ReplayOptions(), control: ReplayControl = ReplayControl(),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        makeReader: @escaping @Sendable () throws -> any ReplayPacketReader
    ) {
        self.name = name
        self.options = options
        self.control = control
        self.now = now
        self.makeReader = makeReader
        (events, continuation) = AsyncStream.makeStream(of: SourceEvent.self, bufferingPolicy: .bufferingNewest(100_000))
        // At max speed the consumer sets the pace: a bounded buffer would drop packets, so
        // the replay thread waits for room instead (see `yield`).
    }

    /// Opens the file (errors are thrown here) and starts the replay thread.
    public func start() throws {
        let reader = try makeReader()
        firstReader.withLock { $0 = ReaderBox(reader: reader) }
        let thread = Thread { [self] in run() }
        thread.name = "beacontop replay \(name)"
        thread.start()
    }

    public func stop() { stopped.withLock { $0 = true } }

    private var isStopped: Bool { stopped.withLock { $0 } }

    private func run() {
        guard var reader = firstReader.withLock({ box -> (any ReplayPacketReader)? in
            defer { box = nil }
            return box?.reader
        }) else { return }
        continuation.yield(.status(.connected(source: name)))
        var pacer: ReplayPacer?
        var captureStart: Double?
        var loopOffset = 0.0
        var lastDelivered: Double?
        var firstDelivered: Double?
        var loops = 0
        var paused = false

        func finish(_ reason: String) {
            continuation.yield(.status(.ended(source: name, reason: reason)))
            continuation.finish()
        }

        while !isStopped {
            let packet: HCIPacket?
            do {
                packet = try reader.nextPacket()
            } catch {
                if let recoverable = error as? any RecoverableReplayError, recoverable.isRecoverable {
                    continuation.yield(.status(.framingError(source: name, detail: "\(error)")))
                    continue
                }
                finish("replay stopped: \(error)")
                return
            }
            var reachedEnd = packet == nil
            if let packet {
                if captureStart == nil { captureStart = packet.timestamp }
                let offset = packet.timestamp - captureStart!
                if let from = options.from, offset < from { continue }
                if let to = options.to, offset > to { reachedEnd = true }
            }
            if reachedEnd {
                let note = reader.endNote.map { ": \($0)" } ?? ""
                guard options.loop, let first = firstDelivered, let last = lastDelivered else {
                    finish("end of replay after \(control.position.packets) packets\(note)")
                    return
                }
                do { reader = try makeReader() } catch {
                    finish("replay stopped: cannot reopen: \(error)")
                    return
                }
                loops += 1
                loopOffset += last - first + 1
                captureStart = nil
                firstDelivered = nil
                pacer = nil
                continuation.yield(.status(.ended(source: name, reason: "looping (\(loops))\(note)")))
                continue
            }
            guard var packet else { continue }
            let time = packet.timestamp
            if firstDelivered == nil { firstDelivered = time }
            if pacer == nil {
                pacer = ReplayPacer(captureStart: time, wallStart: now(), speed: options.speed)
                if paused { pacer!.pause(atWall: now(), lastCaptureTime: time) }
            }
            // Wait until the packet is due, applying controls as they come.
            while !isStopped {
                let wall = now()
                if let speed = control.takeSpeed() { pacer!.setSpeed(speed, atWall: wall, lastCaptureTime: lastDelivered ?? time) }
                if control.isPaused != paused {
                    paused.toggle()
                    if paused { pacer!.pause(atWall: wall, lastCaptureTime: lastDelivered ?? time) } else { pacer!.resume(atWall: wall) }
                }
                if paused {
                    if control.takeStep() { pacer!.stepped(to: time); break }
                    Thread.sleep(forTimeInterval: 0.02)
                    continue
                }
                guard let delay = pacer!.delay(until: time, atWall: wall), delay > 0 else { break }
                Thread.sleep(forTimeInterval: min(delay, 0.05))
            }
            if isStopped { break }
            lastDelivered = time
            control.delivered(position: time - (captureStart ?? time))
            packet.timestamp = time + loopOffset
            yield(.packet(packet))
        }
        finish("replay stopped")
    }

    /// Yields, waiting while the consumer is far behind so a max-speed replay loses nothing.
    private func yield(_ event: SourceEvent) {
        while true {
            switch continuation.yield(event) {
            case .enqueued(let remaining) where remaining < 1_000:
                Thread.sleep(forTimeInterval: 0.005)
                return
            case .dropped:
                // Cannot happen before the buffer is full, which the wait above prevents.
                return
            default:
                return
            }
        }
    }
}

/// Hands the first reader from `start()` to the replay thread.
private struct ReaderBox: @unchecked Sendable {
    // Moved exactly once from `start()` to the replay thread, under the Mutex.
    var reader: any ReplayPacketReader
}
