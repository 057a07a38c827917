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
        .target(name: "Captures", dependencies: ["HCI", "BeaconFormats"]),
        .target(name: "Ranging", dependencies: ["BeaconFormats", .product(name: "Yams", package: "Yams")]),
        .target(name: "Sources", dependencies: ["HCI", "BeaconFormats", "Captures"]),
        .target(name: "Simulation", dependencies: ["HCI", "BeaconFormats", "Captures", "Ranging"]),
        .target(name: "RangingEvaluation", dependencies: ["HCI", "BeaconFormats", "Ranging", "Simulation"]),
        .target(name: "Monitor", dependencies: ["HCI", "BeaconFormats", "Ranging", "Sources"]),
        .target(
            name: "CNcursesw",
            cSettings: [.define("_XOPEN_SOURCE_EXTENDED"), .define("NCURSES_WIDECHAR", to: "1")],
            linkerSettings: [.linkedLibrary("ncursesw")]
        ),
        .target(name: "TerminalUI", dependencies: ["Monitor", "CNcursesw"]),
        .executableTarget(
            name: "beacontop",
            dependencies: [
                "HCI", "BeaconFormats", "Captures", "Ranging", "Sources", "Simulation", "Monitor", "TerminalUI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "beacontop-bench",
            dependencies: ["HCI", "BeaconFormats", "Captures", "Ranging", "Sources", "Simulation", "RangingEvaluation", "Monitor", "TerminalUI"]
        ),
        .target(name: "TestFixtures", dependencies: ["HCI", "Captures"], path: "Tests/TestFixtures"),
        .testTarget(name: "HCITests", dependencies: ["HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "BeaconFormatsTests", dependencies: ["BeaconFormats", "HCI", "TestFixtures"]),
        .testTarget(name: "CapturesTests", dependencies: ["Captures", "HCI", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "RangingTests", dependencies: ["Ranging", "BeaconFormats", "Simulation", "TestFixtures"]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation", "Ranging", "BeaconFormats", "HCI", "Captures", "TestFixtures"]),
        .testTarget(name: "RangingEvaluationTests", dependencies: ["RangingEvaluation", "Ranging", "Simulation", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "SourcesTests", dependencies: ["Sources", "HCI", "Captures", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "MonitorTests", dependencies: ["Monitor", "Ranging", "BeaconFormats", "HCI", "Captures", "Sources", "TestFixtures"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "Monitor", "Ranging", "BeaconFormats", "TestFixtures"]),
        .testTarget(name: "EndToEndTests", dependencies: ["Monitor", "TestFixtures"]),
    ]
)
