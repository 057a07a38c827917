// swift-tools-version: 6.1
import PackageDescription

// One module per layer of the data path (see docs/architecture.md); each depends only on the
// layers above it, so decoding and ranging stay pure and testable without a terminal or a radio.

// The modules the ranging evaluation, the simulated venue and the tick lines spend their time in
// are compiled with -O -wmo in the debug build too: at -Onone the suite spent minutes in their
// unspecialised generic code (16x the release time), its critical path. -wmo so that a generic
// helper in another file is specialised; -num-threads keeps one object per file, as SwiftPM's
// index needs. Overflow, bounds and precondition checks stay on; none of them uses assert().
// What it costs (build time, the debugger) is in docs/architecture.md, "Tests";
// BEACONTOP_ONONE=1 builds them at -Onone again, to step through them in a debugger.
let optimisedInDebug: [SwiftSetting] = Context.environment["BEACONTOP_ONONE"] == "1"
    ? [] : [.unsafeFlags(["-O", "-wmo", "-num-threads", "2"], .when(configuration: .debug))]

let package = Package(
    name: "beacontop",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "beacontop", targets: ["beacontop"]),
        // For the fuzz harnesses' own package (Fuzz/Package.swift, docs/fuzzing.md).
        .library(name: "BeaconTopParsers", targets: ["HCI", "BeaconFormats", "NDJSON", "Captures", "Ranging", "PacketSources", "Venue", "Survey", "Sessions"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "HCI"),
        .target(name: "PrintableText"),
        .target(name: "BeaconFormats", dependencies: ["HCI"]),
        .target(name: "NDJSON", swiftSettings: optimisedInDebug),
        .target(name: "Captures", dependencies: ["HCI", "BeaconFormats", "NDJSON"]),
        .target(
            name: "Ranging", dependencies: ["HCI", "BeaconFormats", "NDJSON", "PrintableText", .product(name: "Yams", package: "Yams")],
            swiftSettings: optimisedInDebug
        ),
        .target(name: "CRadioGuard"),
        .target(name: "PacketSources", dependencies: ["HCI", "BeaconFormats", "Captures", "CRadioGuard"]),
        .target(
            name: "Simulation", dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources"],
            swiftSettings: optimisedInDebug
        ),
        .target(name: "RangingEvaluation", dependencies: ["HCI", "BeaconFormats", "Ranging", "Simulation"], swiftSettings: optimisedInDebug),
        .target(name: "Monitor", dependencies: ["HCI", "BeaconFormats", "Ranging", "PacketSources", "Survey", "Venue"]),
        .target(name: "Survey", dependencies: ["HCI", "BeaconFormats", "NDJSON", "PrintableText", "Ranging"]),
        .target(
            name: "Sessions",
            dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "PrintableText", "Ranging", "PacketSources", "Simulation", "Survey", "MQTT", "Venue"]
        ),
        .target(
            name: "CNcursesw",
            dependencies: ["CRadioGuard"],
            cSettings: [.define("_XOPEN_SOURCE_EXTENDED"), .define("NCURSES_WIDECHAR", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(name: "TerminalUI", dependencies: ["Monitor", "PacketSources", "Survey", "CNcursesw"]),
        // libmosquitto, found by pkg-config (Debian libmosquitto-dev; Tests/setup.sh installs it).
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),
        .target(name: "MQTT", dependencies: ["CMosquitto", "PacketSources"]),
        .target(name: "Venue", dependencies: ["BeaconFormats", "HCI", "NDJSON", "Ranging"], swiftSettings: optimisedInDebug),
        .target(name: "VenueSimulation", dependencies: ["Venue", "Simulation", "Ranging"], swiftSettings: optimisedInDebug),
        .executableTarget(
            name: "beacontop",
            dependencies: [
                "HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources", "Simulation", "Sessions", "Monitor", "TerminalUI",
                "PrintableText", "Survey", "MQTT", "Venue",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "beacontop-bench",
            dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources", "Simulation", "RangingEvaluation", "Sessions", "Monitor", "TerminalUI",
                           "Survey", "MQTT", "Venue", "VenueSimulation",
                           // The venue benchmark starts a real mosquitto the way the tests do.
                           "TestFixtures"]
        ),
        .target(name: "TestFixtures", dependencies: ["HCI", "BeaconFormats", "Captures", "Ranging", "PacketSources"], path: "Tests/TestFixtures"),
        .testTarget(name: "PrintableTextTests", dependencies: ["PrintableText"]),
        .testTarget(name: "HCITests", dependencies: ["HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "BeaconFormatsTests", dependencies: ["BeaconFormats", "HCI", "TestFixtures"]),
        .testTarget(name: "NDJSONTests", dependencies: ["NDJSON"]),
        .testTarget(name: "CapturesTests", dependencies: ["Captures", "HCI", "BeaconFormats", "NDJSON", "TestFixtures"]),
        .testTarget(name: "RangingTests", dependencies: ["Ranging", "BeaconFormats", "NDJSON", "Simulation", "TestFixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Ranging", "BeaconFormats", "HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "RangingEvaluationTests", dependencies: ["RangingEvaluation", "Ranging", "Simulation", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "PacketSourcesTests", dependencies: ["PacketSources", "HCI", "Captures", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "MonitorTests", dependencies: ["Monitor", "Ranging", "BeaconFormats", "HCI", "Captures", "PacketSources", "Survey", "Venue", "TestFixtures"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Monitor", "Survey", "Ranging", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "SurveyTests", dependencies: ["Survey", "Ranging", "BeaconFormats", "HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "SessionsTests", dependencies: ["Sessions", "Monitor", "PacketSources", "Ranging", "BeaconFormats", "HCI", "Captures", "MQTT", "Venue", "TestFixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Monitor", "TestFixtures"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "PacketSources", "Venue", "Ranging", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "VenueTests", dependencies: ["Venue", "VenueSimulation", "Ranging", "BeaconFormats", "HCI", "Simulation", "TestFixtures"]),
    ]
)
