import BeaconFormats
import NDJSON
import Ranging

/// Beacon health in the NDJSON tick lines (`scan --json --health`, `replay --json --health`;
/// docs/formats.md "Health fields"): a `BeaconWatch` fed every sighting, and at each tick a
/// `health` object per beacon and the `duplicate` and `address-rotated` events since the last tick.
public struct HealthTickLines: Sendable {
    public private(set) var watch: BeaconWatch
    private var pending: [AddressEvent] = []

    public init(catalog: ExhibitCatalog? = nil) {
        watch = BeaconWatch(catalog: catalog)
    }

    /// Every sighting, before or after it is ranged (telemetry and reports without RSSI included).
    public mutating func observe(_ sighting: BeaconSighting) {
        pending += watch.observe(sighting)
    }

    /// The extras for the tick at `time`; the events pending are handed out once.
    public mutating func extras(at time: Double) -> Extras {
        defer { pending.removeAll(keepingCapacity: true) }
        return Extras(conditions: watch.conditions(at: time), events: pending)
    }

    /// One tick's health fields and events.
    public struct Extras: TickLineExtras {
        public var conditions: BeaconConditions
        public var events: [AddressEvent]

        public func appendFields(of beacon: BeaconReading, to w: inout JSONWriter) {
            w.raw(",\"health\":")
            guard let condition = conditions.byIdentity[beacon.identity] else { return w.null() }
            HealthJSON.append(condition, at: conditions.time, to: &w)
        }

        public func appendEvents(to w: inout JSONWriter, afterOthers: Bool) {
            for (position, event) in events.enumerated() {
                if afterOthers || position > 0 { w.byte(UInt8(ascii: ",")) }
                HealthJSON.append(event, to: &w)
            }
        }
    }
}

/// The JSON of beacon health and address events, written through the one JSON writer.
public enum HealthJSON {
    /// `{"address":…,"tlm":…,"battery":…,…,"findings":[…],"duplicates":[…]}`: null where unknown.
    public static func append(_ condition: BeaconCondition, at time: Double, to w: inout JSONWriter) {
        let health = condition.health
        w.raw("{\"address\":")
        if let address = health?.address { w.string(address.description) } else { w.null() }
        let telemetry = health?.telemetry
        w.raw(",\"tlm\":")
        switch telemetry?.content {
        case .plain: w.string("plain")
        case .encrypted: w.string("encrypted")
        case nil: w.null()
        }
        var battery: Int?, temperature: Double?, count: UInt32?, uptime: Double?
        if case .plain(let millivolts, let celsius, let advertised, let seconds)? = telemetry?.content {
            (battery, temperature, count, uptime) = (millivolts, celsius, advertised, seconds)
        }
        w.raw(",\"battery\":")
        if let battery { w.integer(battery) } else { w.null() }
        w.raw(",\"temperature\":")
        if let temperature { w.number(temperature, decimals: 2) } else { w.null() }
        w.raw(",\"advertisingCount\":")
        if let count { w.unsigned(UInt64(count)) } else { w.null() }
        w.raw(",\"uptime\":")
        if let uptime { w.number(uptime, decimals: 1) } else { w.null() }
        w.raw(",\"tlmAge\":")
        if let heard = telemetry?.time, time.isFinite { w.number(max(0, time - heard), decimals: 3) } else { w.null() }
        w.raw(",\"advertisingInterval\":")
        if let period = health?.interval?.period { w.number(period, decimals: 4) } else { w.null() }
        w.raw(",\"loss\":")
        if let interval = health?.interval { w.number(interval.lossFraction, decimals: 3) } else { w.null() }
        w.raw(",\"frames\":")
        w.integer(health?.frames ?? 0)
        w.raw(",\"findings\":[")
        for (position, finding) in (health?.findings ?? []).enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"kind\":")
            w.string(finding.kind)
            w.raw(",\"message\":")
            w.string(finding.description)
            w.byte(UInt8(ascii: "}"))
        }
        w.raw("],\"duplicates\":[")
        for (position, finding) in condition.duplicates.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            appendAddresses(finding.addresses, to: &w)
        }
        w.raw("]}")
    }

    /// `{"type":"duplicate","id":…,"addresses":[…],"t":…}` or
    /// `{"type":"address-rotated","id":…,"from":…,"to":…,"t":…}`.
    public static func append(_ event: AddressEvent, to w: inout JSONWriter) {
        w.raw("{\"type\":")
        w.string(event.kind)
        switch event {
        case .duplicate(let finding):
            w.raw(",\"id\":")
            w.string(finding.identity.description)
            w.raw(",\"addresses\":")
            appendAddresses(finding.addresses, to: &w)
            w.raw(",\"t\":")
            w.number(finding.detected, decimals: 6, keepPoint: true)
        case .rotated(let identity, let from, let to, let time):
            w.raw(",\"id\":")
            w.string(identity.description)
            w.raw(",\"from\":")
            w.string(from.description)
            w.raw(",\"to\":")
            w.string(to.description)
            w.raw(",\"t\":")
            w.number(time, decimals: 6, keepPoint: true)
        }
        w.byte(UInt8(ascii: "}"))
    }

    static func appendAddresses(_ addresses: [AddressSummary], to w: inout JSONWriter) {
        w.byte(UInt8(ascii: "["))
        for (position, side) in addresses.enumerated() {
            if position > 0 { w.byte(UInt8(ascii: ",")) }
            w.raw("{\"address\":")
            w.string(side.address.description)
            w.raw(",\"rssi\":")
            if let rssi = side.rssi { w.number(rssi, decimals: 1) } else { w.null() }
            w.raw(",\"packets\":")
            w.integer(side.packets)
            w.byte(UInt8(ascii: "}"))
        }
        w.byte(UInt8(ascii: "]"))
    }
}
