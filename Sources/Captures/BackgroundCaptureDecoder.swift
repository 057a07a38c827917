import Dispatch
import BeaconFormats
import HCI
import Synchronization

/// Reads and decodes a capture on a thread of its own and hands over, in batches and in capture
/// order, every packet's time and the beacon sightings in it, with the records and packets that
/// were malformed: the same as running `CaptureReader` and `BeaconSightingDecoder` in a loop.
///
/// Why a thread: a headless replay at full speed spends about a third of its time reading and
/// decoding and the rest ranging and writing NDJSON, and those two halves only meet at the
/// sightings. On two cores they overlap (`beacontop-bench replay-stages`, docs/benchmarks.md).
/// At most `depth` batches wait for the consumer, so memory stays bounded whatever the file size.
public final class BackgroundCaptureDecoder: Sendable {
    /// Packets in capture order; the sightings of packet `i` are
    /// `sightings[sightingStart[i]..<sightingStart[i + 1]]`.
    public struct Batch: Sendable {
        public var packetTimes: [Double] = []
        public var sightingStart: [Int] = [0]
        public var sightings: [BeaconSighting] = []
        /// Records the reader skipped as malformed (it carried on after each), in order.
        public var malformedRecords: [CaptureError] = []
        /// HCI packets that did not decode (the sightings before the fault are kept), in order,
        /// each with the byte offset of its record, as `decode` reports them.
        public var malformedPackets: [MalformedPacket] = []
        /// Set on the last batch: how reading ended.
        public var end: End?

        public var packetCount: Int { packetTimes.count }
    }

    public struct End: Sendable {
        public var recordCount: Int
        /// The file ended inside a record, after every whole one.
        public var truncation: CaptureTruncation?
        /// Reading stopped before the end of the file (a corrupt header field).
        public var stoppedBy: CaptureError?
    }

    private let channel: BatchChannel

    /// Starts reading `reader` on a background thread, `batchSize` packets to a batch.
    public init(reader: CaptureReader, batchSize: Int = 4096, depth: Int = 4) {
        let channel = BatchChannel(depth: depth)
        self.channel = channel
        DispatchQueue.global(qos: .userInitiated).async {
            Self.read(reader, batchSize: max(1, batchSize), into: channel)
        }
    }

    /// The next batch, waiting for it; nil after the batch that carries `end`.
    public func next() -> Batch? { channel.receive() }

    /// Stops the reading thread early (it finishes the record it is on).
    public func cancel() { channel.close() }

    /// A consumer that lets go before the end would otherwise leave the reading thread waiting for
    /// room forever, holding the file open.
    deinit { channel.close() }

    private static func read(_ reader: CaptureReader, batchSize: Int, into channel: BatchChannel) {
        var reader = reader
        var decoder = BeaconSightingDecoder()
        var batch = Batch()
        var packet = HCIPacket.empty
        var stoppedBy: CaptureError?
        while true {
            do {
                guard try reader.next(into: &packet) else { break }
            } catch {
                if error.isRecoverable {
                    batch.malformedRecords.append(error)
                    continue
                }
                stoppedBy = error
                break
            }
            batch.packetTimes.append(packet.timestamp)
            do {
                try decoder.decode(packet) { batch.sightings.append($0) }
            } catch {
                batch.malformedPackets.append(MalformedPacket(fileOffset: reader.recordOffset, reason: "HCI \(error)"))
            }
            batch.sightingStart.append(batch.sightings.count)
            if batch.packetCount >= batchSize {
                guard channel.send(batch) else { return }
                batch = Batch()
                batch.packetTimes.reserveCapacity(batchSize)
                batch.sightingStart.reserveCapacity(batchSize + 1)
                batch.sightings.reserveCapacity(batchSize)
            }
        }
        batch.end = End(recordCount: reader.recordCount, truncation: reader.truncation, stoppedBy: stoppedBy)
        _ = channel.send(batch)
    }
}

/// A bounded single-producer, single-consumer queue of batches.
private final class BatchChannel: Sendable {
    private struct State {
        var batches: [BackgroundCaptureDecoder.Batch] = []
        var closed = false
        var ended = false
    }

    private let state = Mutex(State())
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)

    init(depth: Int) {
        // Created at 0 and raised: libdispatch traps when a semaphore is freed below the value it
        // was created with, as this one is when the consumer stops early.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, depth) { free.signal() }
    }

    /// Waits for room; false when the consumer has closed the channel.
    func send(_ batch: BackgroundCaptureDecoder.Batch) -> Bool {
        free.wait()
        let accepted = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.batches.append(batch)
            return true
        }
        if accepted { filled.signal() }
        return accepted
    }

    func receive() -> BackgroundCaptureDecoder.Batch? {
        if state.withLock({ $0.ended || $0.closed }) { return nil }
        filled.wait()
        let batch = state.withLock { state -> BackgroundCaptureDecoder.Batch in
            let batch = state.batches.removeFirst()
            if batch.end != nil { state.ended = true }
            return batch
        }
        free.signal()
        return batch
    }

    func close() {
        state.withLock { $0.closed = true }
        // Wakes a producer waiting for room, which then sees `closed`.
        free.signal()
    }
}
