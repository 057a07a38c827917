import Foundation

extension BeaconTrack {
    /// This beacon as the engine reports it at a tick (filtered RSSI, accuracy and its range,
    /// proximity class, rate, interval) and, when `windowLevel` is asked for, the median RSSI of
    /// its last `nearestWindow` seconds for the nearest-exhibit choice.
    ///
    /// A mutating method on the track, called in place (`tracks[i].tickReading(...)`): read through
    /// the array's getter instead, each beacon's track was copied per tick, its arrays and strings
    /// retained and released.
    mutating func tickReading(
        at time: Double, settings: RangingEngine.Settings, exhibit: Exhibit?, windowLevel: Bool
    ) -> (reading: BeaconReading, windowRSSI: Double?) {
        let configuration = settings.value
        let power = ResolvedMeasuredPower.resolve(
            frame: frameMeasuredPower, override: measuredPowerOverride, defaultPower: configuration.defaultMeasuredPower
        )
        let exponent = pathLossExponent
        let stale = time - lastSeen > configuration.staleAfter
        var filtered: Double?
        var accuracy = -1.0
        var range: ClosedRange<Double>?
        if !stale, let (estimate, variance) = estimate(at: time) {
            filtered = estimate
            if let posterior {
                let (metres, interval) = posterior.estimate(x: power.dBm - estimate)
                accuracy = metres
                range = interval
            } else {
                let model = configuration.distanceModel
                if let metres = model.distance(rssi: estimate, measuredPower: power.dBm, pathLossExponent: exponent) {
                    accuracy = metres
                    // The filter's own variance and the shadowing it cannot see, as a normal deviation in
                    // dB: the range is the stated probability's central interval of it, through the model.
                    let deviation = settings.rangeQuantile
                        * ((variance ?? 0) + configuration.shadowingDeviation * configuration.shadowingDeviation).squareRoot()
                    if case .logDistance = model {
                        // A dB offset is a constant factor in log-distance: one pow, not two.
                        let factor = pow(10, deviation / (10 * exponent))
                        range = (metres / factor)...(metres * factor)
                    } else if let low = model.distance(rssi: estimate + deviation, measuredPower: power.dBm, pathLossExponent: exponent),
                              let high = model.distance(rssi: estimate - deviation, measuredPower: power.dBm, pathLossExponent: exponent) {
                        range = min(low, high)...max(low, high)
                    }
                }
            }
        }
        refreshAddressText()
        let proximity = classifier.update(distance: accuracy >= 0 ? accuracy : nil, at: time)
        // Worked out before the call, not in its argument list: there it cost a copy of the whole
        // track per beacon per tick (+1.7% instructions on `beacontop-bench ranging`, callgrind).
        let memory = configuration.nearestMemory == .staleAfter ? configuration.staleAfter : Double.infinity
        let overInterval = configuration.nearestMemory == .oneInterval
        let windowRSSI = windowLevel && !stale
            ? recentRSSIQuantile(at: time, window: configuration.nearestWindow, quantile: configuration.nearestQuantile, memory: memory, overInterval: overInterval)
            : nil
        let reading = BeaconReading(
            identity: identity, id: id, address: address, addressText: addressText, rssi: lastRSSI, filteredRSSI: filtered,
            accuracy: accuracy, accuracyRange: range, rangeProbability: configuration.rangeProbability, proximity: proximity, measuredPower: power,
            pathLossExponent: exponent, packets: packetsSinceTick, totalPackets: totalPackets,
            packetsPerSecond: packetsPerSecond(at: time), advertisingInterval: advertisingInterval,
            firstSeen: firstSeen, lastSeen: lastSeen, isStale: stale, exhibit: exhibit
        )
        return (reading, windowRSSI)
    }
}
