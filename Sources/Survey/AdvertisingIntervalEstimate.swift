/// A beacon's advertising interval measured from when its packets arrived, with the packets the
/// receiver missed accounted for, and the share it missed.
///
/// The raw gaps between arrivals are not the interval: a scanner misses packets (a busy radio, a
/// scan window shorter than the scan interval, a body in the way), so a 100 ms beacon shows gaps of
/// 100, 200, 300 ms... The interval is the gaps' approximate common divisor: the longest period of
/// which (nearly) every gap is a whole multiple. Each advertising event is also delayed by a random
/// 0-10 ms (`advDelay`, Core 5.4 Vol 6 Part B 4.4.2.2.1), so a gap of k events is k (T + 5 ms) on
/// average, give or take a few ms per event: the tolerance grows with k, and `period` is the
/// configured interval plus about 5 ms.
public struct AdvertisingIntervalEstimate: Sendable, Equatable {
    /// Mean time between advertising events, seconds (the configured interval plus about 5 ms).
    public var period: Double
    /// Advertising events heard (arrivals less than `sameEvent` apart counted once).
    public var eventsHeard: Int
    /// Advertising events the beacon sent over the same span, by the estimate.
    public var eventsSent: Int

    public init(period: Double, eventsHeard: Int, eventsSent: Int) {
        self.period = period
        self.eventsHeard = eventsHeard
        self.eventsSent = eventsSent
    }

    /// The share of advertising events the receiver missed, 0...1.
    public var lossFraction: Double {
        eventsSent > 0 ? max(0, 1 - Double(eventsHeard) / Double(eventsSent)) : 0
    }

    /// Arrivals closer than this belong to one advertising event (an advertisement and its scan
    /// response, two frames in one advertisement): half the shortest interval Bluetooth allows.
    public static let sameEvent = 0.010
    /// The shortest advertising interval (Core 5.4 Vol 4 Part E 7.8.5).
    public static let shortestInterval = 0.020
    /// Fewest gaps an estimate is made from.
    public static let minimumGaps = 4
    /// Least share of gaps that must be whole multiples of the period (more when chance alone
    /// would fit many, see `fittedPeriod`): the rest are timestamp glitches and stray packets.
    static let fitShare = 0.8
    /// The most events one gap may span and still count towards the fit (beyond it the random
    /// delays add up to more than the tolerance; such gaps count as loss only).
    static let longestFittedGap = 16
    /// Least share of the fitted gaps that must not be multiples of 2 (of 3, 4 ... 16) events, or
    /// the period is not told from twice it (see `decidesAgainstItsMultiples`). Chosen on synthetic
    /// bunched arrivals (seeds 1-100 of a Python port, docs/survey.md); random loss gives 0.5 or more.
    static let decidingShare = 0.3
    /// Divisors of a reference gap tried: up to this many events in one gap.
    static let largestDivisor = 12

    /// Whether `arrivals` hold enough advertising events for an estimate: when they do and
    /// `estimate` still gives none, the gaps did not decide the period (bunched arrival times),
    /// which the health view says instead of "not yet measured".
    public static func hasEnoughEvents(_ arrivals: some Collection<Double>) -> Bool {
        events(arrivals).count > minimumGaps
    }

    /// Arrivals less than `sameEvent` apart counted once.
    private static func events(_ arrivals: some Collection<Double>) -> [Double] {
        var events: [Double] = []
        events.reserveCapacity(arrivals.count)
        for time in arrivals where events.last.map({ time - $0 >= sameEvent }) ?? true {
            events.append(time)
        }
        return events
    }

    /// Estimates from arrival times in increasing order; nil with fewer than `minimumGaps` gaps
    /// between distinct events, or when no period fits.
    public static func estimate(arrivals: some Collection<Double>) -> AdvertisingIntervalEstimate? {
        let events = events(arrivals)
        guard events.count > minimumGaps else { return nil }
        let gaps = zip(events.dropFirst(), events).map { $0 - $1 }
        let sorted = gaps.sorted()
        // Candidates: a few short-to-middling gaps, each divided by 1...12 (that many events between
        // two packets). Several quantiles, not the shortest gap alone: real captures hold gaps far
        // shorter than the interval (8% of the iPhone's gaps in the shared nRF Sniffer capture are
        // 10-13 ms, beside its 30-40 ms ones), and those must not set the scale.
        var best: Double?
        var undecided: [Double] = []
        var tried: [Double] = []
        for quantile in [0.1, 0.25, 0.5] {
            let reference = sorted[Int(Double(sorted.count - 1) * quantile)]
            // A regular beacon's quantiles are often the same gap: fit it once.
            if tried.contains(reference) { continue }
            tried.append(reference)
            for divisor in 1...largestDivisor {
                let candidate = reference / Double(divisor)
                guard candidate >= shortestInterval - sameEvent else { break }
                // The longest period that fits: its divisors fit too.
                if let fit = fittedPeriod(gaps, near: candidate) {
                    if !decidesAgainstItsMultiples(fit.multiples) {
                        undecided.append(fit.period)
                    } else if fit.period > best ?? 0 {
                        best = fit.period
                    }
                    break
                }
            }
        }
        // A period no longer than one the gaps could not tell from its multiples is no better
        // founded: an honest "unknown" beats a false "advertises every 51 ms".
        guard let period = best, undecided.allSatisfy({ period > 1.5 * $0 }) else { return nil }
        let sent = gaps.reduce(0) { $0 + max(1, Int(multiples($1, period))) }
        return AdvertisingIntervalEstimate(period: period, eventsHeard: events.count, eventsSent: sent + 1)
    }

    /// The period, refined from `candidate`, of which enough gaps are whole multiples; nil when
    /// too few are.
    ///
    /// The candidate comes from one gap and may be a few ms off; multiplied by 16 that error alone
    /// would exceed the tolerance. So it is refined on the gaps of at most 2 events first (total
    /// time over total events of those that fit), then of 4, 8 and 16, before the fit is judged.
    private static func fittedPeriod(_ gaps: [Double], near candidate: Double) -> (period: Double, multiples: [Int])? {
        var period = candidate
        for limit in [2.0, 4, 8, Double(longestFittedGap)] {
            var fittedTime = 0.0, fittedEvents = 0.0
            for gap in gaps {
                let events = multiples(gap, period)
                if events >= 1, events <= limit, abs(gap - events * period) <= tolerance(events: events, period: period) {
                    fittedTime += gap
                    fittedEvents += events
                }
            }
            if fittedEvents > 0 { period = fittedTime / fittedEvents }
        }
        // Judge the fit against chance: a gap that is not a multiple of anything still lands in a
        // tolerance window with probability `2 tolerance / period` (up to 0.7), so the share that
        // fits must beat that share by half of what is left, and never be under `fitShare`. Gaps
        // longer than `longestFittedGap` events say nothing either way, and must not be most of them.
        var fitted: [Int] = []
        var considered = 0.0, chance = 0.0
        for gap in gaps {
            let events = multiples(gap, period)
            guard events <= Double(longestFittedGap) else { continue }
            considered += 1
            let window = tolerance(events: max(events, 1), period: period)
            chance += min(1, 2 * window / period)
            if events >= 1, abs(gap - events * period) <= window { fitted.append(Int(events)) }
        }
        // A period under the shortest interval Bluetooth allows is a fit to noise (with 80% of the
        // real iPhone capture's events dropped, 15 ms "periods" fitted).
        guard considered >= 0.5 * Double(gaps.count), period >= shortestInterval else { return nil }
        let byChance = chance / considered
        guard Double(fitted.count) >= max(fitShare, byChance + (1 - byChance) / 2) * considered else { return nil }
        return (period, fitted)
    }

    /// Whether the gaps that fit a period say it is that period and not a multiple of it: for every
    /// m, at least `decidingShare` of them must span a number of events that m does not divide.
    ///
    /// A beacon at T with random loss shows gaps of 1, 2, 3... events, a geometric spread in which
    /// at least half are odd (0.54 at 85% loss) and more are not multiples of 3, 4, ... But when
    /// arrival times are bunched (H4 over TCP or a serial relay, a USB controller batching reports,
    /// a loaded host), a 100 ms beacon's gaps of 90-115 ms miss the 1-event tolerance, while at 51
    /// ms they are "2 events" with a wider one: the fit moves to T/2 (or T/3, T/11...), and nearly
    /// every gap spans an even number (a multiple of 3, 11) of those events. Such a period is not
    /// told from its multiple by the data, so it is not an estimate.
    static func decidesAgainstItsMultiples(_ multiples: [Int]) -> Bool {
        let least = decidingShare * Double(multiples.count)
        return (2...longestFittedGap).allSatisfy { m in Double(multiples.count { $0 % m != 0 }) >= least }
    }

    /// `gap / period` to the nearest whole number. Both are positive, so adding a half and
    /// truncating rounds; `rounded()` is a libm call, and this runs a thousand times per estimate
    /// (callgrind: a third of a health report). Capped so the conversion cannot trap.
    @inline(__always)
    static func multiples(_ gap: Double, _ period: Double) -> Double {
        Double(Int(min(gap / period, 1e9) + 0.5))
    }

    /// How far a gap of `events` events may be from `events * period`: the random advertising
    /// delays (uniform 0-10 ms, about 3 ms standard deviation each) add up like a random walk, plus
    /// a few ms for host timestamps; never more than 0.35 period, or neighbouring multiples would
    /// merge. (0.25 lost the 35 ms iPhone once 80% of its events were dropped; 0.35 and 0.45 were
    /// tried on seeds 1-40 of the synthetic test, 0.35 kept: 3 of 800 cases off.)
    static func tolerance(events: Double, period: Double) -> Double {
        min(0.004 + 0.006 * events.squareRoot(), 0.35 * period)
    }
}
