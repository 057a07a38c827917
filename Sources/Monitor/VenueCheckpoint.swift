import PacketSources
import Venue

/// What a seek back on a venue recording restores instead of rebuilding the venue view from the
/// recording's start (`SourceNotice.checkpoint`, `.rewound`): the view as it was when the replay
/// passed a checkpoint, before the message at the checkpoint's position, and what of the feed's
/// own state follows from the messages up to there. A value (the view's containers are shared with
/// the live view until it changes them), kept by the feed on the monitor's loop; the replay thread
/// keeps only the position.
struct VenueCheckpoint: Sendable {
    var venue: VenueView
    var venueTicked: Double?
    var lastPacketTime: Double?
    /// The enter and exit lines the log held: the view wrote them before the checkpoint, and a
    /// rebuild from the start writes them again.
    var visitLines: [MonitorEvent]
}

extension MonitorFeed {
    /// Checkpoint `id` of a venue recording's replay: keeps the view as it is now, and drops the
    /// checkpoints the replay dropped (it keeps a bounded number: `VenueReplayEngine.checkpointLimit`).
    mutating func keepVenueCheckpoint(_ id: Int, dropping dropped: [Int]) {
        for old in dropped { venueCheckpoints[old] = nil }
        guard let venue else { return }
        venueCheckpoints[id] = VenueCheckpoint(
            venue: venue, venueTicked: venueTicked, lastPacketTime: lastPacketTime,
            visitLines: events.filter { $0.kind == .enter || $0.kind == .exit }
        )
    }

    /// A seek back resuming from checkpoint `id` (the messages from its position follow, unpaced up
    /// to `target`): the feed ends as a rebuild from the recording's start would leave it
    /// (`rewindVenue`), without feeding what came before the checkpoint again. The view, its tick and
    /// the newest message time are the checkpoint's; the log keeps its lines up to `target` less the
    /// enter and exit lines, and gets back those written before the checkpoint, in time order (the
    /// messages that follow write the later ones again). The checkpoints after it are dropped, as the
    /// replay drops them. False when there is no such checkpoint.
    mutating func restoreVenue(_ id: Int, at target: Double) -> Bool {
        let kept = venueCheckpoints.filter { $0.key <= id }
        guard let checkpoint = kept[id], venue != nil, target.isFinite else { return false }
        rewindVenue(to: target)
        venueCheckpoints = kept
        venue = checkpoint.venue
        venueTicked = checkpoint.venueTicked
        lastPacketTime = checkpoint.lastPacketTime
        for line in checkpoint.visitLines { insert(line, inTimeOrder: true) }
        return true
    }
}
