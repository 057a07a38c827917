import BeaconFormats
import Captures
import HCI
import Ranging
import PacketSources
import Survey

/// The headless replay loop behind `replay --json` and `report` (and the benchmark that measures
/// them): reads a capture through `CaptureReader` and the one sighting decoder on a second thread
/// (`BackgroundCaptureDecoder`), and ranges its sightings into a `BeaconPipeline` on this one,
/// calling `onTick` for each tick. Malformed records and packets are counted (the first few
/// printed), a torn final record ends the file quietly, a corrupt header stops reading with exit
/// status 2 after what came before.
public enum CaptureReplay {
    /// How the replay went.
    public struct Outcome: Sendable {
        /// The file could not be read at all (nothing was replayed).
        public var cannotRead: CaptureError?
        /// Reading stopped before the end of the file (the ticks before it were written).
        public var stoppedBy: CaptureError?
        public var records = 0
        public var malformed = 0
        /// `stopped` said stop (no more output could be written) before the end of the file.
        public var stoppedEarly = false

        /// 0 replayed, 1 the file cannot be read, 2 reading stopped at a corrupt header.
        public var exitStatus: Int32 { cannotRead != nil ? 1 : stoppedBy != nil ? 2 : 0 }

        /// Says what stopped the replay, if anything did.
        public func reportFailure() {
            if let cannotRead { StandardError.report("\(cannotRead)") }
            if let stoppedBy { StandardError.report("\(stoppedBy); replayed up to there") }
        }
    }

    /// Replays `path` into `pipeline`, printing warnings and the summary line to standard error.
    public static func run(path: String, pipeline: inout BeaconPipeline, onTick: (RangingSnapshot) -> Void) -> Outcome {
        var health: HealthTickLines?
        return run(path: path, pipeline: &pipeline, health: &health) { snapshot, _ in onTick(snapshot) }
    }

    /// As `run(path:pipeline:onTick:)`, and when `health` is set every sighting (telemetry
    /// included) also goes to it, and each tick comes with its health fields and events
    /// (`replay --json --health`). `stopped` is asked before each batch: when it says so (a write
    /// failed: `replay --json | head -1`), reading stops there instead of going on to the end of the
    /// file with nowhere to put the ticks, and the summary says how many packets were read.
    public static func run(
        path: String, pipeline: inout BeaconPipeline, health: inout HealthTickLines?,
        stopped: () -> Bool = { false }, onTick: (RangingSnapshot, HealthTickLines.Extras?) -> Void
    ) -> Outcome {
        func tick(_ snapshot: RangingSnapshot) { onTick(snapshot, health?.extras(at: snapshot.time)) }
        let reader: CaptureReader
        do {
            reader = try CaptureReader(path: path)
        } catch {
            return Outcome(cannotRead: error)
        }
        var outcome = Outcome()
        var malformedRecords = 0
        var cutRecords = 0
        var malformedPackets = 0
        var firstPacketError: MalformedPacket?
        var end: BackgroundCaptureDecoder.End?
        var packetsRead = 0
        var clock = CaptureClock()
        let decoder = BackgroundCaptureDecoder(reader: reader)
        while let batch = decoder.next() {
            if stopped() {
                decoder.cancel()
                outcome.stoppedEarly = true
                break
            }
            packetsRead += batch.packetCount
            for error in batch.malformedRecords {
                // Cut by the capture's snap length: counted apart, the first said.
                if case .cutBySnapLength = error {
                    cutRecords += 1
                    if cutRecords == 1 { StandardError.line("warning: \(error)") }
                    continue
                }
                malformedRecords += 1
                if malformedRecords <= 5 { StandardError.line("warning: \(error)") }
            }
            malformedPackets += batch.malformedPackets.count
            if firstPacketError == nil { firstPacketError = batch.malformedPackets.first }
            if health == nil {
                range(batch, into: &pipeline, clock: &clock, onTick: tick)
            } else {
                for packet in 0..<batch.packetCount {
                    pipeline.advance(to: clock.time(batch.packetTimes[packet]), onTick: tick)
                    for index in batch.sightingStart[packet]..<batch.sightingStart[packet + 1] {
                        let sighting = clock.shifted(batch.sightings[index])
                        health!.observe(sighting)
                        pipeline.record(sighting)
                    }
                }
            }
            if let last = batch.end { end = last }
        }
        outcome.stoppedBy = end?.stoppedBy
        outcome.records = end?.recordCount ?? 0
        outcome.malformed = malformedPackets + malformedRecords
        if outcome.stoppedEarly {
            StandardError.line("\(packetsRead) packets read, \(pipeline.beaconReports) beacon frames ranged: no more output could be written")
            return outcome
        }
        pipeline.finish(onTick: tick)
        if let truncation = end?.truncation {
            StandardError.line("warning: \(path): \(truncation); replayed up to there")
        }
        if let first = firstPacketError {
            // Where it is, as `decode` says it: without the offset it could not be found in the file.
            StandardError.line("warning: first \(first)")
        }
        let cut = cutRecords > 0 ? ", \(cutRecords) cut by the snap length" : ""
        StandardError.line("\(outcome.records) records, \(pipeline.beaconReports) beacon frames ranged, \(outcome.malformed) malformed packets\(cut)")
        return outcome
    }

    /// Ranges one batch in capture order: the ticks due before each packet, then its sightings,
    /// on `clock`'s time (a step back is a step of zero).
    @inline(__always)
    public static func range(
        _ batch: BackgroundCaptureDecoder.Batch, into pipeline: inout BeaconPipeline, clock: inout CaptureClock,
        onTick: (RangingSnapshot) -> Void
    ) {
        for packet in 0..<batch.packetCount {
            pipeline.advance(to: clock.time(batch.packetTimes[packet]), onTick: onTick)
            for index in batch.sightingStart[packet]..<batch.sightingStart[packet + 1] {
                pipeline.record(clock.shifted(batch.sightings[index]))
            }
        }
    }
}
