import BeaconFormats
import Captures
import Foundation
import HCI
import NDJSON
import Testing

@Suite struct BeaconOutputTests {
    static let sighting = BeaconSighting(
        timestamp: 1_700_000_000.123, address: BDAddress("AA:BB:CC:DD:EE:FF")!, addressType: .randomDevice,
        eventKind: .advNonconnInd, rssi: -67,
        frame: .iBeacon(IBeaconFrame(uuid: UUIDBytes("E2C56DB5-DFFB-48D2-B060-D0F5A71096E4")!, major: 100, minor: 1, measuredPower: -59))
    )

    @Test func frameLineCarriesTheDocumentedFields() throws {
        var line = JSONWriter()
        BeaconFrameLine.append(Self.sighting, to: &line)
        let text = line.text
        #expect(text == #"{"t":1700000000.123000,"address":"AA:BB:CC:DD:EE:FF","addressType":"random","event":"ADV_NONCONN_IND","rssi":-67,"kind":"ibeacon","id":"E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1","measuredPower":-59}"# + "\n")
        // And Foundation's parser agrees it is JSON with those values.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.bytes)) as? [String: Any])
        #expect(object["rssi"] as? Int == -67 && object["id"] as? String == "E2C56DB5-DFFB-48D2-B060-D0F5A71096E4:100:1")
    }

    @Test func tallyComputesMedianAndPowersFromAllFrames() {
        var tallies = BeaconTallies()
        var sighting = Self.sighting
        for (rssi, power) in [(-70, -59), (-60, -59), (-50, 12), (-40, -59)] as [(Int8, Int8)] {
            sighting.rssi = rssi
            sighting.frame = .iBeacon(IBeaconFrame(uuid: UUIDBytes(high: 1, low: 2), major: 3, minor: 4, measuredPower: power))
            tallies.add(sighting)
        }
        sighting.rssi = nil
        tallies.add(sighting)
        let tally = tallies.tallies[0]
        #expect(tallies.tallies.count == 1)
        #expect(tally.frames == 5 && tally.framesWithoutRSSI == 1)
        #expect(tally.rssiMinimum == -70 && tally.rssiMaximum == -40 && tally.rssiMedian == -55)
        #expect(tally.measuredPowers == [MeasuredPowerCount(dBm: -59, frames: 4), MeasuredPowerCount(dBm: 12, frames: 1)])
        var line = JSONWriter()
        BeaconSummaryLine.append(tally, to: &line)
        #expect(line.text.hasPrefix(#"{"id":"00000000-0000-0001-0000-000000000002:3:4","kind":"ibeacon","frames":5,"rssiMin":-70,"rssiMedian":-55,"rssiMax":-40,"framesWithoutRssi":1,"measuredPowers":[{"dBm":-59,"frames":4},{"dBm":12,"frames":1}]"#))
    }
}
