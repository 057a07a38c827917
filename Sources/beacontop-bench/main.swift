// beacontop-bench: speed measurements, run in release (`swift run -c release beacontop-bench NAME`).
import Glibc
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "render":
    RenderBenchmark.run()
case "monitor":
    do {
        try MonitorLoadBenchmark.run(arguments: Array(arguments.dropFirst()))
    } catch {
        print("monitor: \(error)")
        exit(1)
    }
default:
    print("usage: beacontop-bench render | monitor [beacons] [seconds]")
}
