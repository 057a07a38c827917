import ArgumentParser
import Captures
import NDJSON
import Sessions

/// `beacontop decode FILE`: the beacon frames in a capture, summarised per beacon or listed.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode the beacon frames in a capture file (btsnoop, pcap, pcapng).",
        discussion: """
            Prints one line per distinct beacon: identity, kind, frames, RSSI min/median/max and the \
            measured powers seen. Malformed packets are reported on stderr with their byte offsets and \
            counted; a file cut mid-record is decoded up to the cut. Exit status: 0 decoded (warnings \
            possible), 1 the file cannot be read, 2 reading stopped at a corrupt header, 64 a usage \
            error (no file, an unknown option).
            """
    )

    @Argument(help: "The capture file: btsnoop (datalink 1001, 1002, 2001), pcap or pcapng.") var file: String
    @Flag(help: "List every beacon frame instead of the per-beacon summary.") var frames = false
    @Flag(help: "Write NDJSON: one object per frame or per beacon.") var json = false
    @Flag(help: "Do not print each malformed packet, only their count.") var quiet = false

    func run() throws {
        var output = StandardOutput()
        var line = JSONWriter(capacity: 1 << 10)
        var tallies = BeaconTallies()
        var reportedMalformed = 0
        let listFrames = frames
        let asJSON = json
        let verbose = !quiet
        let totals: CaptureScanTotals
        do {
            totals = try CaptureBeaconScanner.scan(path: file, onSighting: { sighting in
                guard listFrames else { tallies.add(sighting); return }
                if asJSON {
                    line.removeAll()
                    BeaconFrameLine.append(sighting, to: &line)
                    output.write(line.bytes)
                } else {
                    output.write(BeaconFrameText.detailed(sighting))
                }
            }, onMalformed: { packet in
                reportedMalformed += 1
                if verbose { StandardError.line("warning: \(packet)") }
            }, stop: {
                // `decode --frames FILE | head -1` read the whole file after head left (9 s for a
                // million reports); the frame list stops at the first write that fails, as replay.
                output.closed
            })
        } catch {
            StandardError.report("\(error)")
            throw ExitCode(1)
        }
        if !listFrames {
            let sorted = tallies.sorted
            if asJSON {
                for tally in sorted {
                    line.removeAll()
                    BeaconSummaryLine.append(tally, to: &line)
                    output.write(line.bytes)
                }
            } else {
                output.write(BeaconSummaryTable.text(sorted))
            }
        }
        try output.finish()
        for (linkType, count) in totals.skippedRecords.sorted(by: { $0.key < $1.key }) {
            StandardError.line("note: \(count) records of unsupported link type \(linkType) skipped")
        }
        if let truncation = totals.truncation {
            StandardError.line("warning: \(file): \(truncation); decoded up to there")
        }
        // The first only: a capture made with a short snap length cuts every report.
        if let cut = totals.firstCut { StandardError.line("warning: \(cut)") }
        let cut = totals.cutBySnapLength > 0 ? ", \(totals.cutBySnapLength) cut by the snap length" : ""
        let closed = output.closed ? ": no more output could be written" : ""
        StandardError.line("\(totals.records) records, \(totals.packets) HCI packets, \(totals.sightings) beacon frames, \(totals.malformed) malformed packets\(cut)\(closed)")
        if let stopped = totals.stoppedBy {
            StandardError.report("\(stopped); decoded up to there")
            throw ExitCode(2)
        }
    }
}
