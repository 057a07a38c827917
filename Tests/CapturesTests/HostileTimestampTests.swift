import BeaconFormats
import Captures
import HCI
import NDJSON
import TestFixtures
import Testing

/// Times outside 1970-2200 (`TimestampPolicy`) are malformed records: skipped, counted, named,
/// and never reach arithmetic that could trap or stop advancing.
@Suite struct HostileTimestampTests {
    struct Read {
        var times: [Double] = []
        var malformed: [CaptureError] = []
        var records = 0
    }

    static func read(_ name: String) throws -> Read {
        var reader = try CaptureReader(path: HostileInputs.path(name))
        var result = Read()
        var more = true
        while more {
            let step = Result { () throws(CaptureError) -> HCIPacket? in try reader.next() }
            switch step {
            case .success(let packet?): result.times.append(packet.timestamp)
            case .success(nil): more = false
            case .failure(let error):
                guard error.isRecoverable else { throw error }
                result.malformed.append(error)
            }
        }
        result.records = reader.recordCount
        return result
    }

    @Test("a pcapng if_tsoffset of +2^62 or -2^62 s makes that interface's packet malformed, not a time")
    func hugeTimestampOffsets() throws {
        for name in ["pcapng-tsoffset-positive.pcapng", "pcapng-tsoffset-negative.pcapng"] {
            let read = try Self.read(name)
            #expect(read.times == [1_700_000_000, 1_700_000_001], "\(name)")
            #expect(read.records == 3)
            #expect(read.malformed.count == 1)
            #expect(read.malformed.first?.description.contains("outside 1970-01-01 to 2200-01-01") == true, "\(read.malformed)")
        }
    }

    @Test("an if_tsresol of 10^0 with 2^64-1 ticks is refused, the packets around it are read")
    func secondTicksAtTheirMaximum() throws {
        let read = try Self.read("pcapng-tsresol-seconds-max-ticks.pcapng")
        #expect(read.times == [1_700_000_000, 1_700_000_001])
        #expect(read.malformed.count == 1)
    }

    @Test("btsnoop times at year 0, at the sign bit and at all ones are refused, naming the timestamp's offset")
    func btsnoopExtremeTimes() throws {
        let read = try Self.read("btsnoop-extreme-times.btsnoop")
        #expect(read.times == [1_700_000_000, 1_700_000_001])
        #expect(read.malformed.count == 3)
        // Record 2 starts at 16 + (24 + 45): its timestamp field is 16 bytes into the record header.
        guard case .malformedRecord(_, let offset, let reason) = read.malformed.first else {
            Issue.record("\(read.malformed)")
            return
        }
        #expect(offset == 16 + 24 + 45 + 16)
        #expect(reason.contains("outside 1970-01-01 to 2200-01-01"))
    }

    @Test("a time past 2^53 s between ordinary ones is refused; a 150-year jump inside the range is kept")
    func timeJump() throws {
        let read = try Self.read("pcapng-time-jump.pcapng")
        #expect(read.times == [1_700_000_000, 1_700_000_002, 1_700_000_000 + 150 * 365 * 86_400])
        #expect(read.malformed.count == 1)
    }

    @Test("decode --json's frame line writes null for a time it cannot hold, instead of trapping")
    func jsonLineTimeBeyondInt64Microseconds() {
        var sighting = BeaconOutputTests.sighting
        for time in [1e300, -9.3e12, 9.2e12, .infinity, .nan] {
            sighting.timestamp = time
            var line = JSONWriter()
            BeaconFrameLine.append(sighting, to: &line)
            #expect(line.text.hasPrefix("{\"t\":null,\"address\""), "\(time): \(line.text)")
        }
        sighting.timestamp = 7_258_118_399.999999
        var line = JSONWriter()
        BeaconFrameLine.append(sighting, to: &line)
        #expect(line.text.hasPrefix("{\"t\":7258118399.999999,"), "\(line.text)")
        #expect(JSONWriter.text { $0.number(1e300, decimals: 1) } == "null")
    }

    @Test("the scanner behind decode counts refused times as malformed and decodes the rest")
    func decodeCountsRefusedTimes() throws {
        var times: [Double] = []
        let totals = try CaptureBeaconScanner.scan(path: HostileInputs.path("pcapng-tsoffset-positive.pcapng"),
                                                   onSighting: { times.append($0.timestamp) }, onMalformed: { _ in })
        #expect(times == [1_700_000_000, 1_700_000_001])
        #expect(totals.malformed == 1)
    }
}
