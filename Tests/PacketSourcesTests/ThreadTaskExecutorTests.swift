import Foundation
import Testing
@testable import PacketSources

/// The executor's thread carries its name where `ps -L` and `top -H` read it, cut to Linux's 15
/// bytes on a character boundary (a Foundation `Thread`'s name set before `start()` never got there).
@Suite struct ThreadTaskExecutorTests {
    private static func systemName(on executor: ThreadTaskExecutor) async -> String? {
        await withTaskExecutorPreference(executor) {
            (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
        }
    }

    @Test(arguments: [
        ("restart hci0", "restart hci0"),
        ("restart tcp:127.0.0.1:9000", "restart tcp:127"),
        // 14 bytes then a two-byte character: the character is left out, not split.
        ("restart hci0 a\u{E9}", "restart hci0 a"),
        // 13 bytes then a two-byte character: it ends the 15.
        ("restart hci0 \u{E9}x", "restart hci0 \u{E9}"),
    ])
    func theThreadIsNamedForTheSystem(name: String, shown: String) async {
        #expect(await Self.systemName(on: ThreadTaskExecutor(name: name)) == shown)
    }
}
