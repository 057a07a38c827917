import Foundation
import Synchronization
import Testing

/// Runs a suite's test bodies off Swift's cooperative pool. Swift Testing runs every test there, and
/// the pool is only as wide as the cores (2 on CI): a synchronous test holds its pool thread until it
/// returns. Two evaluation tests computing for a minute, or the VM suite waiting on qemu for ten,
/// left every async test in the run (a broker's events, a source's inbox, a child's output) without
/// a thread, and the tests that had started a wall-clock wait lost it. The trait moves such bodies to
/// threads the pool does not count; what they check is unchanged.
///
/// - `.onComputationThread`: CPU-heavy suites. One thread for the whole test run, so their bodies
///   run one after another and take at most one core, leaving the other to the terminals, brokers and
///   controllers that other tests wait on. Put every suite that shares an expensive `static let` here
///   together: a test on the pool that reaches one another test is still computing blocks its thread.
/// - `.onWaitingThread`: suites that block for long on other processes (the qemu VM). Their bodies
///   wait one after another on another thread of the run, at no cost to the pool (the VM suite is
///   serialized and boots one VM at a time anyway).
public struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    /// The names of the two threads, as the system shows them (`ps -L`, gdb) and as
    /// `OffPoolTraitTests` checks them.
    public static let computationThreadName = "tests: compute"
    public static let waitingThreadName = "tests: wait"

    fileprivate static let computation = NamedThreadExecutor(name: computationThreadName)
    fileprivate static let waiting = NamedThreadExecutor(name: waitingThreadName)

    fileprivate let executor: NamedThreadExecutor

    /// Applied to each test of a suite, nested suites too.
    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // A child task's first job goes to its preferred executor, whatever path Swift Testing
        // takes to the body. `withTaskExecutorPreference` alone moves nothing until the task next
        // hops (Swift 6.3's `@Test` thunk happens to), so a body could stay on its pool thread.
        // The group waits for its child, so `function` does not outlive this call.
        try await withoutActuallyEscaping(function) { function in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: executor) { try await function() }
                try await group.waitForAll()
            }
        }
    }
}

extension Trait where Self == OffPoolTrait {
    /// The suite's tests run one at a time on the test run's computation thread (see `OffPoolTrait`).
    public static var onComputationThread: Self { OffPoolTrait(executor: OffPoolTrait.computation) }

    /// The suite's tests run one at a time on the test run's waiting thread (see `OffPoolTrait`).
    public static var onWaitingThread: Self { OffPoolTrait(executor: OffPoolTrait.waiting) }
}

/// A task executor with one thread that runs its jobs in order for the rest of the process, named
/// `name` from inside through `/proc/thread-self/comm` (Linux keeps 15 bytes). A Foundation
/// `Thread`'s `name` does not reliably reach the system on Linux: one set before `start()` never
/// does, one set from inside is lost when the thread runs before `start()` has stored its handle (6
/// threads in 200 here). The thread then keeps the name of the thread that started it, a pool
/// thread's ("oot.default-qos"), and no test could tell the two apart.
final class NamedThreadExecutor: TaskExecutor, Sendable {
    private let jobs = Mutex<[UnownedJob]>([])
    private let queued = DispatchSemaphore(value: 0)

    init(name: String) {
        Thread { [self] in
            try? name.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            while true {
                queued.wait()
                let job = jobs.withLock { $0.removeFirst() }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        queued.signal()
    }
}
