import BeaconFormats
import Foundation
import NDJSON
import PrintableText

/// Beacon frames as aligned text lines, for a person at a terminal (the NDJSON forms are
/// `BeaconFrameLine`). An id can be text from the air (an Eddystone URL): escapes print visibly,
/// never raw (docs/robustness.md).
public enum BeaconFrameText {
    /// `decode --frames`: time to the microsecond, address, RSSI, kind, id, measured power.
    public static func detailed(_ s: BeaconSighting) -> String {
        let time = JSONWriter.text { $0.fixed(s.timestamp, decimals: 6) }
        let rssi = s.rssi.map { "\($0) dBm" } ?? "no rssi"
        let power = s.frame.measuredPower.map { "measured \(signed($0))" } ?? ""
        return "\(time)  \(s.address)  \(pad(rssi, 8))  \(pad(s.frame.kind.rawValue, 13))  \(PrintableText.line(s.identity.description))  \(power)\n"
    }

    /// `scan --frames`: time to the millisecond, address, RSSI, kind, id.
    public static func compact(_ sighting: BeaconSighting) -> String {
        let rssi = sighting.rssi.map { String($0) } ?? "-"
        let kind = sighting.frame.kind.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0)
        return "\(String(format: "%.3f", sighting.timestamp)) \(sighting.address) \(rssi.padding(toLength: 4, withPad: " ", startingAt: 0)) \(kind) \(PrintableText.line(sighting.identity.description))\n"
    }

    static func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : "\(value)" }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
