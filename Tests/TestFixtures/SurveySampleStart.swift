import Foundation
import Testing

/// Starts a sample in `beacontop survey` running in tmux, for the survey's terminal tests.
///
/// Enter is refused until the survey's loop has taken a packet, and nothing on the screen says
/// whether it has: the loop takes the source's batches at its 100 ms ticks, after the keys read in
/// the same tick, and draws the plan at its first tick with or without them (a notice such as
/// "recording to" then replaces the refusal's words). A replay's thread that delivers after that
/// first tick (a loaded machine), or a controller that takes a while to start scanning, made an
/// Enter sent when the plan first showed start no sample. So Up follows each Enter: keys are
/// handled in order, and a refused Enter leaves the cursor free, so Up moves it (moved back, Enter
/// again); an accepted one fixes the spot, and Up is refused.
public enum SurveySampleStart {
    public struct NotStarted: Error, CustomStringConvertible {
        public let description: String
    }

    /// The info line's cursor ("cursor x 1.5 m, y 1.0 m").
    public static func cursor(_ screen: String) -> String? {
        screen.range(of: #"cursor x -?[0-9.]+ m, y -?[0-9.]+ m"#, options: .regularExpression).map { String(screen[$0]) }
    }

    /// Starts sample `index` where the cursor is (the screen must show it) and returns the screen
    /// that shows it started. Tries again for up to `seconds`, sized for a controller's start on a
    /// loaded machine.
    @discardableResult
    public static func start(_ index: Int, in session: TmuxSession, seconds: Double = 30) throws -> String {
        let started = { (screen: String) in
            screen.contains("sampling") || screen.contains("sample \(index) saved") || screen.contains("not saved: sample \(index),")
        }
        let deadline = Date().addingTimeInterval(seconds)
        var screen = try session.capture()
        repeat {
            let here = try #require(cursor(screen), "no cursor on the screen:\n\(screen)")
            try session.send("Enter", "Up")
            screen = try session.waitFor(timeout: 15, "sample \(index) started, or the cursor moved after a refused Enter") {
                // A capture torn mid-redraw can lack the cursor: that is no move.
                started($0) || cursor($0).map { $0 != here } == true
            }
            if started(screen) { return screen }
            try session.send("Down")
            screen = try session.waitFor(timeout: 15, "the cursor back at \(here)") { cursor($0) == here }
        } while Date() < deadline
        throw NotStarted(description: "sample \(index) never started in \(seconds) s:\n\(screen)")
    }
}
