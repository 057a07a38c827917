// swift-tools-version: 6.1
import PackageDescription

// One module per layer of the data path (see README "Architecture"); each depends only on the
// layers above it, so decoding and ranging stay pure and testable without a terminal or a radio.
let package = Package(
    name: "beacontop",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "beacontop", targets: ["beacontop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .target(name: "HCI"),
        .target(name: "BeaconFormats", dependencies: ["HCI"]),
        .target(name: "NDJSON"),
        .target(name: "Captures", dependencies: ["HCI", "BeaconFormats", "NDJSON"]),
        .target(name: "Ranging", dependencies: ["HCI", "BeaconFormats", "NDJSON", .product(name: "Yams", package: "Yams")]),
        .target(name: "PacketSources", dependencies: ["HCI", "BeaconFormats", "Captures"]),
        .target(name: "Simulation", dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources"]),
        .target(name: "Monitor", dependencies: ["HCI", "BeaconFormats", "Ranging", "PacketSources"]),
        .target(name: "Sessions", dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources", "Simulation"]),
        .target(
            name: "CNcursesw",
            cSettings: [.define("_XOPEN_SOURCE_EXTENDED"), .define("NCURSES_WIDECHAR", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(name: "TerminalUI", dependencies: ["Monitor", "PacketSources", "CNcursesw"]),
        .executableTarget(
            name: "beacontop",
            dependencies: [
                "HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources", "Simulation", "Sessions", "Monitor", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "beacontop-bench",
            dependencies: ["HCI", "BeaconFormats", "Captures", "NDJSON", "Ranging", "PacketSources", "Simulation", "Sessions", "Monitor", "TerminalUI"]
        ),
        .target(name: "TestFixtures", dependencies: ["HCI", "BeaconFormats", "Captures", "Ranging", "PacketSources"], path: "Tests/TestFixtures"),
        .testTarget(name: "HCITests", dependencies: ["HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "BeaconFormatsTests", dependencies: ["BeaconFormats", "HCI", "TestFixtures"]),
        .testTarget(name: "NDJSONTests", dependencies: ["NDJSON"]),
        .testTarget(name: "CapturesTests", dependencies: ["Captures", "HCI", "BeaconFormats", "NDJSON", "TestFixtures"]),
        .testTarget(name: "RangingTests", dependencies: ["Ranging", "BeaconFormats", "NDJSON", "Simulation", "TestFixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Ranging", "BeaconFormats", "HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "PacketSourcesTests", dependencies: ["PacketSources", "HCI", "Captures", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "MonitorTests", dependencies: ["Monitor", "Ranging", "BeaconFormats", "HCI", "Captures", "PacketSources", "TestFixtures"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Monitor", "Ranging", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "SessionsTests", dependencies: ["Sessions", "PacketSources", "Ranging", "BeaconFormats", "HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Monitor", "TestFixtures"]),
    ]
)
