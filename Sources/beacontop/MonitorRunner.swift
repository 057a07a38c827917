import Foundation
import Monitor
import PacketSources
import TerminalUI

/// Runs the monitor over an opened, started source: scanning started first on a live controller
/// (so a failing controller is reported before the terminal is taken), the loop on a thread of its
/// own (it blocks in `poll`; the concurrency pool stays free for the source), scanning disabled and
/// the source stopped on every exit.
enum MonitorRunner {
    struct Scanning {
        var controller: LiveSource
        var options: ScanOptions
    }

    static func run(_ session: MonitorSession, scanning: Scanning?) async throws {
        var mode: ScanMode?
        if let scanning {
            do {
                mode = try await ScanProcedure.start(on: scanning.controller, options: scanning.options)
            } catch {
                session.source.stop()
                fail("\(error)")
            }
        }
        session.run(onConnected: scanning.map { scanning in
            { @Sendable in
                // A controller that came back after a loss forgot its scan state.
                _ = try? await ScanProcedure.start(on: scanning.controller, options: scanning.options)
            }
        })
        let outcome: Result<MonitorExit, Error> = await withCheckedContinuation { continuation in
            let thread = Thread {
                var loop = MonitorLoop(initial: session.initialSnapshot, inbox: session.inbox,
                                       noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"])
                continuation.resume(returning: Result { try loop.run { session.handle($0) } })
            }
            thread.name = "beacontop-monitor"
            thread.stackSize = 8 << 20
            thread.start()
        }
        if let mode, let scanning {
            try? await ScanProcedure.stop(on: scanning.controller, mode: mode)
        }
        await session.stop()
        if case .failure(let error) = outcome {
            if error is TerminalError {
                fail("cannot start the terminal UI: stdin and stdout must be a terminal with a known TERM; for NDJSON without a terminal use `beacontop scan SOURCE --json`")
            }
            fail("\(error)")
        }
    }

    /// A start-up failure: the terminal is already restored (or was never taken); say what to do.
    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("beacontop: \(message)\n".utf8))
        exit(1)
    }
}
