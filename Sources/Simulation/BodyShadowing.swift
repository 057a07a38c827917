/// The walker's own body between the phone (held in front) and a beacon: at 2.4 GHz a human
/// torso takes 10-20 dB off a signal passing through it. The loss grows smoothly with the angle
/// between where the walker faces and where the beacon is: none in front, a quarter of the
/// maximum at the side, all of it straight behind.
public enum BodyShadowing {
    /// Extra attenuation in dB (>= 0) for a beacon at `beacon` seen from `position` by a walker
    /// facing `heading` (a unit vector).
    public static func loss(maximum: Double, position: Point2D, heading: Point2D, beacon: Point2D) -> Double {
        guard maximum > 0, let toBeacon = (beacon - position).unit else { return 0 }
        let cosTheta = max(-1, min(1, heading.dot(toBeacon)))
        let behind = (1 - cosTheta) / 2
        return maximum * behind * behind
    }
}
