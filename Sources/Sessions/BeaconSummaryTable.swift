import Captures
import NDJSON
import PrintableText

/// `decode`'s per-beacon summary as an aligned text table (the NDJSON form is `BeaconSummaryLine`):
/// id, kind, frames, RSSI min/median/max and the measured powers seen.
public enum BeaconSummaryTable {
    public static func text(_ tallies: [BeaconTally]) -> String {
        let pad = BeaconFrameText.pad
        // Ids can be text from the air: escapes print visibly, never raw.
        let ids = tallies.map { PrintableText.line($0.identity.description) }
        let width = max(2, ids.map(\.count).max() ?? 0)
        var text = "\(pad("ID", width, false))  \(pad("KIND", 13, false))  \(pad("FRAMES", 7, true))  \(pad("RSSI MIN/MED/MAX", 18, false))  MEASURED POWER (FRAMES)\n"
        for (tally, id) in zip(tallies, ids) {
            var rssi = "-"
            if let low = tally.rssiMinimum, let median = tally.rssiMedian, let high = tally.rssiMaximum {
                rssi = "\(low)/\(JSONWriter.text { $0.number(median, decimals: 1) })/\(high)"
            }
            let powers = tally.measuredPowers.map { "\(BeaconFrameText.signed($0.dBm)) (\($0.frames))" }.joined(separator: ", ")
            text += "\(pad(id, width, false))  \(pad(tally.identity.kind.rawValue, 13, false))  "
                + "\(pad(String(tally.frames), 7, true))  \(pad(rssi, 18, false))  \(powers.isEmpty ? "-" : powers)\n"
        }
        return text
    }
}
