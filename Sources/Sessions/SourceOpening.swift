import Captures
import Foundation
import MQTT
import PacketSources
import Ranging
import Simulation
import Venue

/// What an opened source spec gives a command or the monitor: the source to start (always inside
/// a `RecordingSource`, so recording can start at any time), the live controller to command (nil
/// for replays, the simulator and monitor sockets: they take no commands), and the replay's
/// transport controls (nil for everything but replays).
public struct SourceOpening: Sendable {
    public var source: RecordingSource
    public var controller: LiveSource?
    public var replayControl: ReplayControl?
    /// The catalog a `sim:` source walks (the monitor shows it unless `--exhibits` names another).
    public var simulatedCatalog: ExhibitCatalog?
    /// How long one tour of that catalog lasts, in seconds of the walk (`tourProblem`).
    public var simulatedTour: Double?
    /// A venue's broker (`mqtt://`): the consumer runs a venue view and publishes through it.
    public var broker: BrokerSource?
    /// The topics of that venue (the spec's prefix).
    public var venueTopics: VenueTopics?
    /// Measures a replayed file's length in seconds (`ReplayControl.measureLength`); nil for
    /// everything but replays. The monitor shows it; a headless scan has no use for it.
    public var lengthMeasure: (@Sendable () -> Double?)?

    /// Builds the source a spec names: a live transport, a capture replay or an advertisement
    /// script (chosen by the file's first bytes), or the simulator walking a catalog; recording to
    /// `record` from the first packet when given. Nothing is opened yet: start `source`.
    ///
    /// - Parameters:
    ///   - replay: speed, loop and window of a replay; a `sim:` source runs at its numeric speed.
    ///   - seed: the simulated walk's seed.
    ///   - brokerSettings: client id, keep-alive and TLS files for an `mqtt://` source.
    public init(
        spec: SourceSpec, replay: ReplayOptions = ReplayOptions(), record: String? = nil, seed: UInt64 = 1,
        brokerSettings: BrokerSettings = BrokerSettings()
    ) throws(SourceOpeningError) {
        let base: any PacketSource
        var venueRecorder: (@Sendable (String) throws -> any PacketRecorder)?
        switch spec {
        case .file(let path) where VenueRecording.looksLikeRecording(path: path):
            let replaySource: VenueReplaySource
            do { replaySource = try VenueReplaySource(path: path, options: replay) } catch {
                throw SourceOpeningError(description: "\(error)")
            }
            base = replaySource
            replayControl = replaySource.control
            let prefix = replaySource.prefix
            venueTopics = VenueTopics(prefix: prefix)
            venueRecorder = { try VenueRecordingWriter(path: $0, prefix: prefix) }
            lengthMeasure = { VenueRecordingReader.span(path: path) }
        case .file(let path):
            let script = AdvertisementScriptReader.looksLikeScript(path: path)
            // One count of cut records for every reopening (a seek back, a --loop pass).
            let cuts = SnapLengthCuts()
            let replaySource = ReplaySource(name: path, options: replay) {
                script ? try AdvertisementScriptReader(path: path) as any ReplayPacketReader : try CaptureReplayReader(path: path, cuts: cuts)
            }
            base = replaySource
            replayControl = replaySource.control
            lengthMeasure = { script ? AdvertisementScriptReader.span(path: path) : CaptureClock.replayLength(path: path) }
        case .simulation(let path):
            guard case .factor(let speed) = replay.speed else {
                throw SourceOpeningError(description: "sim: needs a numeric --speed (0.25 to 100)")
            }
            let catalog = try Self.catalog(path)
            let scenario: Scenario
            do { scenario = try VenueStyle.museum.scenario(catalog: catalog, seed: seed) } catch {
                throw SourceOpeningError(description: "\(spec): \(error)")
            }
            // A replay of a visit that never ends; no transport controls: it stands in for a radio.
            base = ReplaySource(name: spec.description, options: ReplayOptions(speed: .factor(speed))) {
                SimulationReader(scenario: scenario, seed: seed)
            }
            simulatedCatalog = catalog
            simulatedTour = scenario.duration
        case .broker(let endpoint):
            let topics = VenueTopics(prefix: endpoint.prefix)
            let broker = BrokerSource(
                options: brokerSettings.options(for: endpoint, role: "view"), subscriptions: topics.viewSubscriptions,
                connectTimeout: brokerSettings.connectTimeout
            )
            base = broker
            self.broker = broker
            venueTopics = topics
            venueRecorder = { try VenueRecordingWriter(path: $0, prefix: endpoint.prefix) }
        case .kernel, .serial, .tcp, .unix:
            let live = LiveSource(spec: spec)
            base = live
            controller = spec.acceptsCommands ? live : nil
        }
        source = venueRecorder.map { RecordingSource(base, makeRecorder: $0) } ?? RecordingSource(base)
        if let record {
            do { try source.startRecording(to: record) } catch {
                throw SourceOpeningError(description: "\(error)")
            }
        }
    }

    /// A `sim:` walk whose one tour lasts longer than a day (`TourLength`), said as `simulate`
    /// says it; nil for any other source. `durationFlag`: the command has a `--duration` that
    /// bounds the run (scan's), which the words then ask for.
    public func tourProblem(durationFlag: Bool) -> String? {
        guard let tour = simulatedTour, tour > TourLength.longest else { return nil }
        return TourLength.refusal(
            source.name, tour: tour, limit: durationFlag ? "a sim: walk takes without --duration" : "a sim: walk takes",
            remedy: durationFlag ? "give --duration" : nil)
    }

    /// Reads an exhibit catalog; the error names the file.
    public static func catalog(_ path: String) throws(SourceOpeningError) -> ExhibitCatalog {
        do { return try ExhibitCatalog(path: path) } catch let error as CatalogFileError {
            throw SourceOpeningError(description: error.description)
        } catch {
            throw SourceOpeningError(description: "catalog \(path): \(error)")
        }
    }
}

/// Why a source could not be set up, in words to print after `beacontop: `.
public struct SourceOpeningError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}
