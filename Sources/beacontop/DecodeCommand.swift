import ArgumentParser
import BeaconFormats
import Captures
import HCI
import NDJSON
#if canImport(Glibc)
import Glibc
#endif

/// `beacontop decode FILE`: the beacon frames in a capture, summarised per beacon or listed.
struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode the beacon frames in a capture file (btsnoop, pcap, pcapng).",
        discussion: """
            Prints one line per distinct beacon: identity, kind, frames, RSSI min/median/max and the \
            measured powers seen. Malformed packets are reported on stderr with their byte offsets and \
            counted; a file cut mid-record is decoded up to the cut. Exit status: 0 decoded (warnings \
            possible), 1 the file cannot be read, 2 reading stopped at a corrupt header.
            """
    )

    @Argument(help: "The capture file: btsnoop (datalink 1001, 1002, 2001), pcap or pcapng.") var file: String
    @Flag(help: "List every beacon frame instead of the per-beacon summary.") var frames = false
    @Flag(help: "Write NDJSON: one object per frame or per beacon.") var json = false
    @Flag(help: "Do not print each malformed packet, only their count.") var quiet = false

    func run() throws {
        var output = BufferedStandardOutput()
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
                    output.write(Self.frameText(sighting))
                }
            }, onMalformed: { packet in
                reportedMalformed += 1
                if verbose { BufferedStandardOutput.error("warning: \(packet)") }
            })
        } catch {
            BufferedStandardOutput.error("beacontop: \(error)")
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
                output.write(Self.summaryText(sorted))
            }
        }
        output.flush()
        for (linkType, count) in totals.skippedRecords.sorted(by: { $0.key < $1.key }) {
            BufferedStandardOutput.error("note: \(count) records of unsupported link type \(linkType) skipped")
        }
        if let truncation = totals.truncation {
            BufferedStandardOutput.error("warning: \(file): \(truncation); decoded up to there")
        }
        BufferedStandardOutput.error("\(totals.records) records, \(totals.packets) HCI packets, \(totals.sightings) beacon frames, \(totals.malformed) malformed packets")
        if let stopped = totals.stoppedBy {
            BufferedStandardOutput.error("beacontop: \(stopped); decoded up to there")
            throw ExitCode(2)
        }
    }

    static func frameText(_ s: BeaconSighting) -> String {
        let time = JSONWriter.text { $0.fixed(s.timestamp, decimals: 6) }
        let rssi = s.rssi.map { "\($0) dBm" } ?? "no rssi"
        let power = s.frame.measuredPower.map { "measured \(signed($0))" } ?? ""
        return "\(time)  \(s.address)  \(pad(rssi, 8))  \(pad(s.frame.kind.rawValue, 13))  \(s.identity)  \(power)\n"
    }

    static func summaryText(_ tallies: [BeaconTally]) -> String {
        let width = max(2, tallies.map { $0.identity.description.count }.max() ?? 0)
        var text = "\(pad("ID", width))  \(pad("KIND", 13))  \(pad("FRAMES", 7, right: true))  \(pad("RSSI MIN/MED/MAX", 18))  MEASURED POWER (FRAMES)\n"
        for tally in tallies {
            var rssi = "-"
            if let low = tally.rssiMinimum, let median = tally.rssiMedian, let high = tally.rssiMaximum {
                rssi = "\(low)/\(JSONWriter.text { $0.number(median, decimals: 1) })/\(high)"
            }
            let powers = tally.measuredPowers.map { "\(signed($0.dBm)) (\($0.frames))" }.joined(separator: ", ")
            text += "\(pad(tally.identity.description, width))  \(pad(tally.identity.kind.rawValue, 13))  "
                + "\(pad(String(tally.frames), 7, right: true))  \(pad(rssi, 18))  \(powers.isEmpty ? "-" : powers)\n"
        }
        return text
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
