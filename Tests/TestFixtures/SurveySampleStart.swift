import Foundation

/// Starts a sample in `beacontop survey` running in tmux, for the survey's terminal tests.
///
/// An Enter before the survey's loop has taken a beacon used to be refused, with words a notice
/// ("recording to") then replaced, and nothing on the screen said whether a packet had been taken:
/// a replay's thread delivering after the loop's first tick (a loaded machine), or a controller
/// slow to start scanning, made an Enter sent when the plan first showed start no sample. The
/// survey now keeps such an Enter (the sample starts with the first beacon), so one Enter is sent
/// and the wait is for the sample itself, under a watchdog sized for a controller's start on a
/// loaded machine.
public enum SurveySampleStart {
    /// Starts sample `index` where the cursor is and returns the screen that shows it started (or
    /// already saved, or refused by a failing write).
    @discardableResult
    public static func start(_ index: Int, in session: TmuxSession, seconds: Double = 30) throws -> String {
        try session.send("Enter")
        return try session.waitFor(timeout: seconds, "sample \(index) started") {
            $0.contains("sampling") || $0.contains("sample \(index) saved") || $0.contains("not saved: sample \(index),")
        }
    }
}
