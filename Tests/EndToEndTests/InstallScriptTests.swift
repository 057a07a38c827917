import Foundation
import Testing
import TestFixtures

/// scripts/install.sh into a temporary DESTDIR, as a packager would run it: the binary runs, `man`
/// finds and renders the page, and each shell accepts its completion script and completes with it.
/// The script installs the debug binary the tests were built with (`--binary`), so no release build
/// is paid here; the release build is `swift build`'s, not the script's, concern.
@Suite(.serialized) struct InstallScriptTests {
    let destdir: URL
    let root: URL
    let binary: String

    init() throws {
        binary = try CommandLineHelp.executable().path
        destdir = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-install-\(UUID().uuidString)")
        root = destdir.appendingPathComponent("usr")
        // PREFIX and DESTDIR from the environment, the `make install` convention.
        let result = try Self.install(["--binary", binary], environment: ["PREFIX": "/usr", "DESTDIR": destdir.path])
        guard result.status == 0 else {
            throw InstallFailed(description: "scripts/install.sh exited \(result.status): \(result.stderr)")
        }
    }

    struct InstallFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func install(_ arguments: [String], environment: [String: String] = [:]) throws -> ExternalCommand.Result {
        let script = SharedData.repositoryRoot.appendingPathComponent("scripts/install.sh").path
        return try ExternalCommand.run(try ExternalCommand.find("bash"), [script] + arguments, environment: environment)
    }

    private func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    private func cleanUp() { try? FileManager.default.removeItem(at: destdir) }

    @Test func theInstalledBinaryRunsAndReadsTheInstalledDemoFiles() throws {
        defer { cleanUp() }
        let installed = path("bin/beacontop")
        #expect(FileManager.default.isExecutableFile(atPath: installed))
        let help = try ExternalCommand.run(installed, ["help"])
        #expect(help.status == 0)
        #expect(help.stdout == (try CommandLineHelp.text()))
        let decode = try ExternalCommand.run(installed, ["decode", path("share/beacontop/demo/museum-walk.btsnoop")])
        #expect(decode.status == 0, "\(decode.stderr)")
        #expect(decode.stdout.contains("8F3A2C61-5B7E-4D19-A0C4-2E6B9F1D7A35:1:1"))
        #expect(FileManager.default.fileExists(atPath: path("share/beacontop/demo/museum.yaml")))
    }

    @Test func manFindsAndRendersTheInstalledPage() throws {
        defer { cleanUp() }
        let man = try ExternalCommand.find("man")
        let result = try ExternalCommand.run(man, ["-M", path("share/man"), "beacontop"],
                                             environment: ["MANPAGER": "cat", "PAGER": "cat", "MANWIDTH": "100", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "man warns: \(result.stderr)")
        let rendered = result.stdout
        #expect(rendered.contains("BEACONTOP(1)"))
        for command in ["monitor", "demo", "scan", "replay", "report", "decode", "advertise", "simulate"] {
            #expect(rendered.contains("\n     \(command)"), "the rendered page has no entry for \(command)")
        }
        #expect(rendered.contains("--truth-step"))
    }

    @Test func bashAcceptsItsCompletionAndCompletesCommandsAndFlags() throws {
        defer { cleanUp() }
        let bash = try ExternalCommand.find("bash")
        let script = path("share/bash-completion/completions/beacontop")
        let syntax = try ExternalCommand.run(bash, ["-n", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        // What bash's programmable completion does on Tab: fill COMP_* and call the function `complete -F` names.
        func complete(_ words: [String]) throws -> [String] {
            let line = words.joined(separator: " ")
            let program = """
                source "$1"; shift
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="${*}"; COMP_POINT=${#COMP_LINE}
                function=$(complete -p beacontop | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
                "$function" beacontop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            let result = try ExternalCommand.run(bash, ["-c", program, "bash", script] + words)
            #expect(result.status == 0, "completing '\(line)': \(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        #expect(try complete(["beacontop", "sc"]) == ["scan"])
        #expect(try complete(["beacontop", "replay", "--ti"]) == ["--tick"])
        #expect(try complete(["beacontop", "de"]).sorted() == ["decode", "demo"])
    }

    @Test func zshAcceptsItsCompletion() throws {
        defer { cleanUp() }
        let script = path("share/zsh/site-functions/_beacontop")
        let text = try String(contentsOfFile: script, encoding: .utf8)
        #expect(text.hasPrefix("#compdef beacontop"))
        let syntax = try ExternalCommand.run(try ExternalCommand.find("zsh"), ["-n", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        #expect(syntax.stderr.isEmpty, "\(syntax.stderr)")
    }

    @Test func fishAcceptsItsCompletionAndCompletesCommandsAndFlags() throws {
        defer { cleanUp() }
        let fish = try ExternalCommand.find("fish")
        let script = path("share/fish/vendor_completions.d/beacontop.fish")
        let syntax = try ExternalCommand.run(fish, ["--no-execute", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let result = try ExternalCommand.run(fish, ["--no-config", "-c", "source $argv[1]; complete -C 'beacontop sc'; complete -C 'beacontop replay --ti'", script],
                                             environment: ["HOME": destdir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let completions = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(completions == ["scan", "--tick"])
    }

    @Test func badArgumentsAreRefusedInWordsAndInstallNothing() throws {
        defer { cleanUp() }
        let elsewhere = destdir.appendingPathComponent("refused")
        let relative = try Self.install(["--binary", binary, "--prefix", "relative/dir", "--destdir", elsewhere.path])
        #expect(relative.status == 64)
        #expect(relative.stderr.contains("--prefix must be an absolute path"))
        let missing = try Self.install(["--binary", destdir.appendingPathComponent("nothing").path, "--destdir", elsewhere.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("is not built"))
        let unknown = try Self.install(["--frobnicate"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown argument '--frobnicate'"))
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
    }
}
