import Foundation

/// How RSSI becomes metres, and the range the truth falls in with a stated probability.
public enum DistanceModel: Sendable, Equatable {
    /// The default: the posterior median of a log-distance model whose exponent is uncertain, with
    /// a prior on how far a phone usually is (`PathLossPrior`, `PathLossPosteriorTable`); the range
    /// is the posterior's central interval. Exponent n = `RangingConfiguration.pathLossExponent`,
    /// combined with the catalog's when it gives one (`PathLossPrior.table`).
    case posterior(PathLossPrior)
    /// Plain log-distance path loss: `d = 10^((P1m - rssi) / (10 n))`.
    case logDistance
    /// The Android Beacon Library / Radius Networks curve fit (see `CurveFitDistanceModel`).
    case curveFit(CurveFitDistanceModel)

    /// The engine's distance in metres for a (filtered) RSSI, or nil when it cannot say.
    public func distance(rssi: Double, measuredPower: Double, pathLossExponent: Double) -> Double? {
        switch self {
        case .posterior(let prior):
            guard rssi.isFinite, rssi != 0, measuredPower.isFinite, pathLossExponent > 0 else { return nil }
            return prior.table(exponent: pathLossExponent, probability: 0.8)
                .estimate(x: measuredPower - rssi).distance
        case .logDistance:
            return LogDistanceModel.distance(rssi: rssi, measuredPower: measuredPower, exponent: pathLossExponent)
        case .curveFit(let model):
            return model.distance(rssi: rssi, measuredPower: measuredPower)
        }
    }

    /// Parses `posterior`, `log` / `log-distance` or `curve-fit` (the AltBeacon/Radius coefficients).
    public init(name: String) throws(RangingConfigurationError) {
        switch name.lowercased() {
        case "posterior", "default": self = .posterior(.herald)
        case "log", "log-distance": self = .logDistance
        case "curve-fit", "curvefit", "android": self = .curveFit(.altBeacon)
        default:
            throw RangingConfigurationError(field: "distance model", reason: "unknown model \"\(name)\"; expected posterior, log-distance or curve-fit")
        }
    }
}

extension PathLossPrior {
    /// The shared table for a beacon: with only the default exponent `exponent` (spread
    /// `exponentSpread`), or with a catalog's exponent too. A catalog exponent is a measurement with
    /// its own error (`calibratedExponentSpread`: one more calibration spot has multipath too), so
    /// it is combined with the default as two normal estimates are, each weighted by its inverse
    /// variance, rather than believed outright.
    public func table(exponent: Double, catalogExponent: Double? = nil, probability: Double) -> PathLossPosteriorTable {
        PathLossPosteriorTable.shared(key(exponent: exponent, catalogExponent: catalogExponent, probability: probability))
    }

    /// The table's key: the exponent and spread as `table` combines them, the tails the range
    /// scales give `probability`.
    public func key(exponent: Double, catalogExponent: Double? = nil, probability: Double) -> PathLossPosteriorTable.Key {
        var mean = exponent
        var spread = exponentSpread
        if let catalogExponent {
            let prior = 1 / max(exponentSpread * exponentSpread, 1e-9)
            let measured = 1 / max(calibratedExponentSpread * calibratedExponentSpread, 1e-9)
            mean = (exponent * prior + catalogExponent * measured) / (prior + measured)
            spread = (1 / (prior + measured)).squareRoot()
        }
        let tails = modelTails(reporting: probability)
        return PathLossPosteriorTable.Key(
            exponent: mean, exponentSpread: spread, shadowing: shadowing,
            nearestDistance: nearestDistance, farthestDistance: farthestDistance, bodyLoss: bodyLoss, bodyShare: bodyShare,
            nearTail: tails.near, farTail: tails.far, farSlope: farSlope
        )
    }
}
/// Log-distance path loss (Rappaport, Wireless Communications, 4.9): received power falls by
/// `10 n` dB per decade of distance from the 1 m reference `P1m`.
public enum LogDistanceModel {
    public static func distance(rssi: Double, measuredPower: Double, exponent: Double) -> Double? {
        guard rssi != 0, exponent > 0, rssi.isFinite else { return nil }
        return pow(10, (measuredPower - rssi) / (10 * exponent))
    }

    /// The RSSI expected at `distance` metres: the inverse, used for accuracy ranges and tests.
    public static func rssi(atDistance distance: Double, measuredPower: Double, exponent: Double) -> Double {
        measuredPower - 10 * exponent * log10(distance)
    }
}

/// The curve fit the Android Beacon Library's `CurveFittedDistanceCalculator` uses:
/// `ratio = rssi / P1m`; `ratio < 1: ratio^10`, else `c1 * ratio^c2 + c3`. With the coefficients of
/// Radius Networks' original fit (0.89976, 7.7095, 0.111) it is also what bluetooth-data-tools,
/// ibeacon-ble and room-assistant compute.
///
/// Edge rules of bluetooth-data-tools' `calculate_distance_meters`, kept so its test vectors hold:
/// rssi 0 means unknown (nil); a positive measured power makes the ratio negative, so the
/// `ratio^10` branch applies (in effect `(rssi / |P1m|)^10`, the "positive power treated as
/// negative" of its tests); results are capped at `cap` (400 m).
public struct CurveFitDistanceModel: Sendable, Equatable {
    public var coefficient1: Double
    public var coefficient2: Double
    public var coefficient3: Double
    public var cap: Double

    public init(coefficient1: Double, coefficient2: Double, coefficient3: Double, cap: Double = 400) {
        self.coefficient1 = coefficient1
        self.coefficient2 = coefficient2
        self.coefficient3 = coefficient3
        self.cap = cap
    }

    /// Radius Networks' fit (an iPhone 4S receiver), the library's historical default.
    public static let altBeacon = CurveFitDistanceModel(coefficient1: 0.89976, coefficient2: 7.7095, coefficient3: 0.111)
    /// The Android Beacon Library's default device model (Nexus 5) in model-distance-calculations.json.
    public static let nexus5 = CurveFitDistanceModel(coefficient1: 0.42093, coefficient2: 6.9476, coefficient3: 0.54992)
    /// Moto X Pro (XT1115) from the same table.
    public static let motoXPro = CurveFitDistanceModel(coefficient1: 0.9401940951, coefficient2: 6.170094565, coefficient3: 0)

    public func distance(rssi: Double, measuredPower: Double) -> Double? {
        guard rssi != 0, measuredPower != 0, rssi.isFinite, measuredPower.isFinite else { return nil }
        // No sign fix-up: a positive power gives a negative ratio, which takes the ratio^10 branch
        // (an even power), exactly as bluetooth-data-tools computes it (its power=59 vector).
        let ratio = rssi / measuredPower
        let metres = ratio < 1 ? pow(ratio, 10) : coefficient1 * pow(ratio, coefficient2) + coefficient3
        return min(metres, cap)
    }
}
