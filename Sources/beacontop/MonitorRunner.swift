import ArgumentParser
import Foundation
import Monitor
import PacketSources
import Ranging
import Sessions
import Survey
import Synchronization
import TerminalUI
import Venue

/// Wires the monitor over an opened source: recording started before the source (so it holds the
/// first packet), scanning started on a live controller before the terminal is taken (so a failing
/// controller is reported in plain text), the loop on a thread of its own (it blocks in `poll`), and
/// on every exit scanning disabled and the source stopped.
enum MonitorRunner {
    struct Setup {
        var opening: SourceOpening
        var catalog: ExhibitCatalog?
        var catalogPath: String?
        var configuration: RangingConfiguration
        var speed: ReplaySpeed?
        var record: String?
        var scanning: ScanOptions?
        /// `--export FILE.csv`: every reading per tick, from the first tick.
        var export: String?
        /// `--read-only`: a venue view that publishes nothing, and says so on its status line.
        var readOnly = false
    }

    /// The inbox of a monitor: room for 16 s of a busy venue's 1,000 adverts/s; the loop takes it at
    /// each tick and is woken early only when a quarter of it is full.
    static func inbox() -> SourceInbox { SourceInbox(capacity: 16_384, wakeThreshold: 4_096) }

    static func run(_ setup: Setup) async throws {
        let opening = setup.opening
        let source = opening.source
        // The monitor and the demo walk a sim: catalog for ever, with no --duration to bound it: a
        // far exhibit was hours of walking with no packet. Refused as simulate refuses it.
        if let problem = opening.tourProblem(durationFlag: false) {
            throw usageError(problem)
        }
        let state: SourceStatus.State = opening.replayControl == nil ? .scanning : .replaying(speed: 1)
        var status = SourceStatus(name: source.name, state: state)
        status.readOnly = setup.readOnly
        var feed = MonitorFeed(configuration: setup.configuration, catalog: setup.catalog, status: status)
        if let topics = opening.venueTopics { feed.startVenue(VenueView(catalog: setup.catalog, topics: topics)) }
        let inbox = inbox()
        var configured = MonitorSession(
            feed: feed, inbox: inbox, recording: source, replay: opening.replayControl,
            speed: opening.replayControl == nil ? nil : setup.speed, catalogPath: setup.catalogPath
        )
        if let broker = opening.broker, !setup.readOnly { configured.publish = { broker.publish($0.message) } }
        let configuredSession = configured
        let export = setup.export
        let nothingReplayed = Mutex<String?>(nil)
        await drive(opening: opening, record: setup.record, scanning: setup.scanning, inbox: inbox) {
            // The export opens once the source runs (and scans): a source that failed to start (no
            // adapter, no permission) had already replaced the file named with a CSV header.
            var session = configuredSession
            if let export {
                do throws(SurveyFileError) { try session.startExport(to: export) } catch { throw StartFailure(description: "--export \(export): \(error.reason)") }
            }
            var loop = MonitorLoop(session: session, noColorVariable: ProcessInfo.processInfo.environment["NO_COLOR"])
            let exit = try loop.run()
            // The terminal is restored; a venue view closes its open visits before the broker goes.
            var ended = loop.session
            if case .nothingReplayed(let reason) = ended.feed.status.state {
                nothingReplayed.withLock { $0 = "\(source.name): nothing replayed: \(reason)" }
            }
            if let closed = ended.finishVenue(now: SourceInbox.wallClock()), let broker = opening.broker {
                StandardError.report(VenueBrokerClosing.closedVisits(closed, broker: broker, published: !setup.readOnly))
            }
            return exit
        }
        // Said again on the restored screen, with the status of a usage error (docs/commands.md).
        if let message = nothingReplayed.withLock({ $0 }) {
            source.discardRecording()
            throw usageError(message)
        }
    }

    /// A failure of the loop's set-up, said as it is (`--export x.csv: cannot write: ...`).
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `opening`'s source into `inbox` (recording to `record` first, so the file holds the
    /// first packet) and scanning on a live controller, runs `loop` (the monitor's or the survey's
    /// owner loop) on a thread of its own, and on every exit disables scanning and stops the source.
    /// `recordFailure` words a recording that cannot start (the survey's own capture is no `--record`);
    /// `startFailed` runs before any failure exits (the survey removes the `--out` it created).
    static func drive(
        opening: SourceOpening, record: String?, scanning: ScanOptions?, inbox: SourceInbox,
        recordFailure: (_ path: String, _ error: any Error) -> String = { "--record \($0): \($1)" },
        startFailed: () -> Void = {},
        loop: @escaping @Sendable () throws -> MonitorExit
    ) async {
        let source = opening.source
        // A run that cannot take the terminal (a pipe, ssh without -t) still starts its source and
        // scanning, so their failures are said first, as in a terminal, but records nothing and
        // runs no loop (the survey's files and the --export file are created in it): it recorded its
        // first packets to --record FILE (or the survey's capture, and wrote its survey file), or
        // replaced the --export file with a header, then failed, and the retry in a terminal
        // refused the file, or the survey without --resume.
        let terminalProblem = TerminalError.forThisTerminal()
        if let record, terminalProblem == nil {
            do { try source.startRecording(to: record) } catch { startFailed(); fail(recordFailure(record, error)) }
        }
        // A failure before the loop runs leaves no recording: nothing was recorded that anyone
        // asked for, and its header made the same command, once the cause was fixed, refuse the name.
        do { try source.start(into: inbox) } catch {
            source.discardRecording()
            startFailed()
            fail(startFailure(error))
        }
        if let measure = opening.lengthMeasure { opening.replayControl?.measureLength(measure) }
        var mode: ScanMode?
        if let controller = opening.controller, let options = scanning {
            do {
                mode = try await ScanProcedure.start(on: controller, options: options)
                if let mode { controller.setCrashStop(ScanProcedure.disable(mode)) }
            } catch {
                source.stop()
                source.discardRecording()
                startFailed()
                fail("\(error)")
            }
            controller.onReconnect { await ScanProcedure.restart(on: controller, options: options) }
        }
        let outcome: Result<MonitorExit, Error> = if let terminalProblem { .failure(terminalProblem) } else {
            await withCheckedContinuation { continuation in
                let thread = Thread {
                    continuation.resume(returning: Result { try loop() })
                }
                thread.name = "beacontop-monitor"
                thread.stackSize = 8 << 20
                thread.start()
            }
        }
        // A retry of a refused restart must not enable scanning after the disable.
        await opening.controller?.endRestarts()
        if let mode, let controller = opening.controller, (try? await ScanProcedure.stop(on: controller, mode: mode)) != nil {
            controller.setCrashStop(nil)
        }
        source.stop()
        inbox.close()
        if let broker = opening.broker { VenueBrokerClosing.close(broker) }
        if case .failure(let error) = outcome {
            // The loop throws only before it draws (no terminal, the export or the survey file
            // cannot be created), so there is no session whose recording to keep.
            source.discardRecording()
            startFailed()
            // TerminalError says what to do (a TERM, a pipe); any other error is printed as it is.
            fail("\(error)")
        }
    }

    /// Why the source did not start; with no adapter at all (most often a first run on a laptop),
    /// also what works without one. A wrong index beside adapters that exist names them instead.
    static func startFailure(_ error: any Error) -> String {
        switch error as? TransportError {
        case .noBluetoothInKernel, .noSuchAdapter(_, existing: []):
            "\(error); with no adapter at hand, `beacontop demo` shows the monitor on a simulated museum tour"
        default: "\(error)"
        }
    }

    /// A usage error found after the arguments were parsed (a flag that does not fit the files
    /// it names): said in one line, status 64 as argument-parser's own (docs/commands.md).
    static func usageError(_ message: String) -> ExitCode {
        StandardError.report(message)
        return ExitCode(64)
    }

    /// A start-up failure: the terminal is already restored (or was never taken); say what to do.
    static func fail(_ message: String) -> Never {
        StandardError.report(message)
        exit(1)
    }
}
