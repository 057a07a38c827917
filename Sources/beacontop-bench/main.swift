// beacontop-bench NAME [ARGS]: release-build benchmarks (README "Benchmarks").
// Run with `swift build -c release --product beacontop-bench && .build/release/beacontop-bench NAME`.
let arguments = Array(CommandLine.arguments.dropFirst())
let rest = Array(arguments.dropFirst())
switch arguments.first {
case "decode-events": DecodeEventsBenchmark.run(rest)
case "decode-file": try DecodeFileBenchmark.run(rest[...])
case "h4-framer": H4FramerBenchmark.run(rest)
default: print("usage: beacontop-bench decode-events|decode-file|h4-framer [N]")
}
