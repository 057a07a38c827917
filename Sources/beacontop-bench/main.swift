// beacontop-bench SUBCOMMAND [ARGS]: release-build benchmarks (README "Benchmarks").
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "decode-events": DecodeEventsBenchmark.run(Array(arguments.dropFirst()))
default: print("usage: beacontop-bench decode-events [N]")
}
