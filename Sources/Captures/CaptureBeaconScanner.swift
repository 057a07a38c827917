import BeaconFormats
import HCI

/// A packet that could not be decoded: where its record starts in the file, and why.
public struct MalformedPacket: Sendable, Equatable, CustomStringConvertible {
    public var fileOffset: Int
    public var reason: String

    public init(fileOffset: Int, reason: String) {
        self.fileOffset = fileOffset
        self.reason = reason
    }

    public var description: String { "malformed packet in the record at byte \(fileOffset): \(reason)" }
}

/// What reading a whole capture found besides beacons.
public struct CaptureScanTotals: Sendable {
    /// Packet records in the file (Wireshark's packet count).
    public var records = 0
    /// HCI packets the reader returned (synthesized reports for link-layer captures).
    public var packets = 0
    public var sightings = 0
    public var malformed = 0
    /// Records the capture's snap length cut (`CaptureError.cutBySnapLength`), not among `malformed`.
    public var cutBySnapLength = 0
    /// The first of them, for the warning that says where.
    public var firstCut: CaptureError?
    public var truncation: CaptureTruncation?
    /// Records on link types that are not read, by link type.
    public var skippedRecords: [UInt32: Int] = [:]
    /// The error that stopped reading before the end of the file (a corrupt header field).
    public var stoppedBy: CaptureError?

    public init() {}
}

/// Reads a capture from start to end through `CaptureReader` and `BeaconSightingDecoder`,
/// the loop `beacontop decode` and the benchmark run. Malformed packets are reported and
/// skipped; a torn final record or a corrupt header ends the scan but keeps what came before.
public enum CaptureBeaconScanner {
    /// Throws only when the file cannot be read at all (cannot open, unknown format). `stop` is
    /// asked before each packet: true ends the scan there (the reader of the output went away).
    public static func scan(
        path: String,
        onSighting: (BeaconSighting) -> Void,
        onMalformed: (MalformedPacket) -> Void = { _ in },
        stop: () -> Bool = { false }
    ) throws(CaptureError) -> CaptureScanTotals {
        var reader = try CaptureReader(path: path)
        var decoder = BeaconSightingDecoder()
        var totals = CaptureScanTotals()
        var packet = HCIPacket.empty
        while !stop() {
            do {
                guard try reader.next(into: &packet) else { break }
            } catch {
                if case .malformedRecord(_, let offset, let reason) = error {
                    totals.malformed += 1
                    onMalformed(MalformedPacket(fileOffset: offset, reason: reason))
                    continue
                }
                if case .cutBySnapLength = error {
                    totals.cutBySnapLength += 1
                    if totals.firstCut == nil { totals.firstCut = error }
                    continue
                }
                totals.stoppedBy = error
                break
            }
            totals.packets += 1
            do {
                try decoder.decode(packet) { sighting in
                    totals.sightings += 1
                    onSighting(sighting)
                }
            } catch {
                totals.malformed += 1
                onMalformed(MalformedPacket(fileOffset: reader.recordOffset, reason: "HCI \(error)"))
            }
        }
        totals.records = reader.recordCount
        totals.truncation = reader.truncation
        totals.skippedRecords = reader.skippedRecords
        return totals
    }
}
