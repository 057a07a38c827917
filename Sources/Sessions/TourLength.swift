/// How long one tour of a catalog may last. A tour is walked at a visitor's pace: an exhibit placed
/// 1000 km away (positions are metres, and a catalog takes up to 1000 km) made one tour weeks
/// long, which `simulate` wrote for hours, and a `sim:` walk spent hours on its way with no packet.
public enum TourLength {
    /// A day: the longest run `simulate --duration` takes, and the longest tour run without it.
    public static let longest = 86_400.0

    /// The refusal of a tour of `tour` seconds past `longest`, for `name` (the catalog, or the
    /// `sim:` spec): `limit` says what takes at most a day, `remedy` what to give instead, if any.
    public static func refusal(_ name: String, tour: Double, limit: String, remedy: String?) -> String {
        "\(name): one tour lasts \(Int(tour.rounded())) s, past the \(Int(longest)) s \(limit) "
            + "(positions are metres: is an exhibit far from the rest?)" + (remedy.map { "; \($0)" } ?? "")
    }
}
