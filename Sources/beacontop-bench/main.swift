// Benchmarks, run on a release build: `swift run -c release beacontop-bench NAME [ARGS]`.
let arguments = CommandLine.arguments.dropFirst()
switch arguments.first {
case "decode-file":
    try DecodeFileBenchmark.run(arguments.dropFirst())
default:
    print("usage: beacontop-bench decode-file [N]")
}
