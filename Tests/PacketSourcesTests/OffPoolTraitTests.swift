import Foundation
import Testing
import TestFixtures

/// `OffPoolTrait` really moves a body off the cooperative pool: it runs on the thread the trait
/// names (a pool thread is named by Dispatch, "oot.default-qos"), in nested suites too, for each
/// case of an argument list, and an async body stays there.
@Suite("Test bodies off the cooperative pool")
struct OffPoolTraitTests {
    /// The calling thread's name as the system has it (Foundation's `Thread.name` may not be it).
    static func threadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "unreadable"
        return comm.trimmingCharacters(in: .newlines)
    }

    @Suite(.onComputationThread)
    struct Computation {
        @Test("a computation suite's test runs on the run's computation thread", arguments: [1, 2])
        func onTheComputationThread(case: Int) {
            #expect(threadName() == OffPoolTrait.computationThreadName, "case \(`case`)")
        }

        @Test("an async test stays on it across a suspension")
        func asyncAcrossASuspension() async {
            #expect(threadName() == OffPoolTrait.computationThreadName)
            await Task.yield()
            #expect(threadName() == OffPoolTrait.computationThreadName)
        }

        @Suite struct Nested {
            @Test func aNestedSuiteToo() {
                #expect(threadName() == OffPoolTrait.computationThreadName)
            }
        }
    }

    @Suite(.onWaitingThread)
    struct Waiting {
        @Test("a waiting suite's test runs on the run's waiting thread")
        func onTheWaitingThread() {
            #expect(threadName() == OffPoolTrait.waitingThreadName)
        }
    }
}
