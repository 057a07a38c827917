import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "ranging": RangingBenchmark.run(arguments: Array(arguments.dropFirst()))
default: print("usage: beacontop-bench ranging [SIGHTINGS [FILTER...]]")
}
