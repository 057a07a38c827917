// beacontop-bench SUBCOMMAND [ARGS]: release-build benchmarks (README "Benchmarks").
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "decode-events": DecodeEventsBenchmark.run(Array(arguments.dropFirst()))
case "h4-framer": H4FramerBenchmark.run(Array(arguments.dropFirst()))
default: print("usage: beacontop-bench decode-events [N] | h4-framer [N]")
}
