import ArgumentParser
import Sessions

extension StandardOutput {
    /// Flushes, and turns a lost write (a full disk, /dev/full) into a message and exit status 1: the
    /// headless commands exited 0 with their output silently gone. A closed pipe is no error.
    mutating func finish() throws {
        flush()
        if let problem {
            StandardError.report(problem)
            throw ExitCode(1)
        }
    }
}
