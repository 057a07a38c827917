import NDJSON

/// The NDJSON line of one beacon's tally (`decode --json`; docs/formats.md "NDJSON beacon summary line"):
/// `{"id","kind","frames","rssiMin","rssiMedian","rssiMax","framesWithoutRssi",
/// "measuredPowers":[{"dBm","frames"}],"firstSeen","lastSeen","lastAddress"}`.
public enum BeaconSummaryLine {
    /// Appends the line and its newline.
    public static func append(_ tally: BeaconTally, to writer: inout JSONWriter) {
        writer.raw("{\"id\":")
        writer.string(tally.identity.description)
        writer.raw(",\"kind\":")
        writer.string(tally.identity.kind.rawValue)
        writer.raw(",\"frames\":")
        writer.integer(tally.frames)
        writer.raw(",\"rssiMin\":")
        optional(tally.rssiMinimum, to: &writer)
        writer.raw(",\"rssiMedian\":")
        if let median = tally.rssiMedian { writer.number(median, decimals: 1) } else { writer.null() }
        writer.raw(",\"rssiMax\":")
        optional(tally.rssiMaximum, to: &writer)
        writer.raw(",\"framesWithoutRssi\":")
        writer.integer(tally.framesWithoutRSSI)
        writer.raw(",\"measuredPowers\":[")
        for (index, power) in tally.measuredPowers.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.raw("{\"dBm\":")
            writer.integer(power.dBm)
            writer.raw(",\"frames\":")
            writer.integer(power.frames)
            writer.raw("}")
        }
        writer.raw("],\"firstSeen\":")
        writer.fixed(tally.firstSeen, decimals: 6)
        writer.raw(",\"lastSeen\":")
        writer.fixed(tally.lastSeen, decimals: 6)
        writer.raw(",\"lastAddress\":")
        if let address = tally.lastAddress { writer.string(address.description) } else { writer.null() }
        writer.raw("}\n")
    }

    private static func optional(_ value: Int?, to writer: inout JSONWriter) {
        if let value { writer.integer(value) } else { writer.null() }
    }
}
