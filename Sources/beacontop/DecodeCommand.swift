import ArgumentParser

struct DecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode the beacon frames in a capture file (btsnoop, pcap, pcapng)."
    )

    @Argument(help: "The capture file.") var file: String

    func run() throws {
        throw ValidationError("decode is not wired yet")
    }
}
