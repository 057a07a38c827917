// swift-tools-version: 6.1
import PackageDescription

// libFuzzer harnesses for beacontop's parsers (docs/fuzzing.md). A package of their own, so
// `swift test` on the main package never builds them; Fuzz/run builds them with
// -sanitize=fuzzer,address into .build/fuzz and runs each one.
//
// A path dependency is named by its folder, which is whatever the clone is called: read it here.
let mainPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "beacontop"

let harnesses = ["fuzz-h4", "fuzz-btsnoop", "fuzz-pcap", "fuzz-pcapng", "fuzz-catalog", "fuzz-catalog-editor", "fuzz-script", "fuzz-source-spec", "fuzz-venue", "fuzz-venue-recording", "fuzz-survey"]

let package = Package(
    name: "beacontop-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "BeaconTopParsers", package: mainPackage)]),
    ] + harnesses.map { name in
        .executableTarget(
            name: name,
            dependencies: ["FuzzSupport", .product(name: "BeaconTopParsers", package: mainPackage)],
            // libFuzzer brings main(); the harness only exports LLVMFuzzerTestOneInput.
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        )
    }
)
