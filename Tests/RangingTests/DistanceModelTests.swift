import Foundation
import Testing
import TestFixtures
@testable import Ranging

@Suite struct DistanceModelTests {
    /// Every distance vector in shared/data/vectors.json, with its notes: bluetooth-data-tools'
    /// curve (positive power taken as negative, 400 m cap, rssi 0 unknown) and the Android Beacon
    /// Library's model-specific curves (Nexus 5 default, Moto X Pro).
    @Test func sharedDistanceVectorsHold() throws {
        let data = try Data(contentsOf: SharedData.vectorsFile)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let vectors = try #require(root["distance_vectors"] as? [[String: Any]])
        #expect(vectors.count == 10)
        for vector in vectors {
            let function = try #require(vector["function"] as? String)
            let args = try #require(vector["args"] as? [String: Any])
            let model: CurveFitDistanceModel
            let power: Double
            if function.hasPrefix("calculate_distance_meters") {
                model = .altBeacon
                power = try #require((args["power"] as? NSNumber)?.doubleValue)
            } else if function.contains("Moto X Pro") {
                model = .motoXPro
                power = try #require((args["txPower"] as? NSNumber)?.doubleValue)
            } else {
                #expect(function.contains("Nexus 5"))
                model = .nexus5
                power = try #require((args["txPower"] as? NSNumber)?.doubleValue)
            }
            let rssi = try #require((args["rssi"] as? NSNumber)?.doubleValue)
            let result = model.distance(rssi: rssi, measuredPower: power)
            if vector["expected"] is NSNull {
                #expect(result == nil, "\(function) \(args)")
            } else {
                let expected = try #require((vector["expected"] as? NSNumber)?.doubleValue)
                let tolerance = (vector["tolerance"] as? NSNumber)?.doubleValue ?? expected * 1e-9
                let value = try #require(result, "\(function) \(args)")
                #expect(abs(value - expected) <= tolerance, "\(function) \(args): \(value) vs \(expected)")
            }
        }
    }

    @Test func logDistanceFollowsTheFormula() throws {
        #expect(try #require(LogDistanceModel.distance(rssi: -59, measuredPower: -59, exponent: 2)) == 1)
        #expect(abs(try #require(LogDistanceModel.distance(rssi: -79, measuredPower: -59, exponent: 2)) - 10) < 1e-9)
        #expect(abs(try #require(LogDistanceModel.distance(rssi: -89, measuredPower: -59, exponent: 3)) - 10) < 1e-9)
        #expect(LogDistanceModel.distance(rssi: 0, measuredPower: -59, exponent: 2) == nil)
        let back = LogDistanceModel.rssi(atDistance: 5, measuredPower: -59, exponent: 2.2)
        #expect(abs(try #require(LogDistanceModel.distance(rssi: back, measuredPower: -59, exponent: 2.2)) - 5) < 1e-9)
    }

    @Test func nonsenseMeasuredPowerFallsBackToTheDefaultAndIsFlagged() {
        let plus12 = ResolvedMeasuredPower.resolve(frame: 12, override: nil, defaultPower: -59)
        #expect(plus12 == ResolvedMeasuredPower(dBm: -59, source: .defaultForNonsense, frameValue: 12))
        let plus3 = ResolvedMeasuredPower.resolve(frame: 3, override: nil, defaultPower: -59)
        #expect(plus3.source == .defaultForNonsense)
        let zero = ResolvedMeasuredPower.resolve(frame: 0, override: nil, defaultPower: -59)
        #expect(zero.source == .defaultForNonsense)
        #expect(ResolvedMeasuredPower.resolve(frame: -62, override: nil, defaultPower: -59).dBm == -62)
        #expect(ResolvedMeasuredPower.resolve(frame: 12, override: -65, defaultPower: -59) == ResolvedMeasuredPower(dBm: -65, source: .catalog, frameValue: 12))
        #expect(ResolvedMeasuredPower.resolve(frame: nil, override: nil, defaultPower: -59).source == .defaultForMissing)
    }

    @Test func namedModelsParse() throws {
        #expect(try DistanceModel(name: "log-distance") == .logDistance)
        #expect(try DistanceModel(name: "curve-fit") == .curveFit(.altBeacon))
        #expect(throws: RangingConfigurationError.self) { try DistanceModel(name: "magic") }
    }
}
