import Foundation
import Synchronization

/// A task executor that runs its jobs on a thread of its own, started when jobs come and ended
/// when none are left. A live source runs its restart action here (`Task(executorPreference:)`),
/// so the action's awaits (each HCI command's continuation, resumed by the reading thread, and
/// the command's timeout, whose `Task` inherits the preference) never wait for Swift's shared
/// cooperative pool: it has as many threads as cores, and a few blocking waits elsewhere in the
/// process (a library's, or test suites': in a full test run, async tests waited minutes for it)
/// hold all of them.
public final class ThreadTaskExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var running = false
    }
    private let queue = Mutex(Queue())
    private let name: String

    public init(name: String) {
        self.name = name
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let startThread = queue.withLock { queue -> Bool in
            queue.jobs.append(job)
            defer { queue.running = true }
            return !queue.running
        }
        guard startThread else { return }
        let thread = Thread { [self] in
            while let next = queue.withLock({ queue -> UnownedJob? in
                guard !queue.jobs.isEmpty else {
                    queue.running = false
                    return nil
                }
                return queue.jobs.removeFirst()
            }) {
                next.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }
}
