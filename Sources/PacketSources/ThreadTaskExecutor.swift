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
            Self.nameCurrentThread(name)
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
        thread.start()
    }

    /// Names the calling thread for `ps -L`, `top -H` and a debugger, from inside: a Foundation
    /// `Thread`'s `name` set before `start()` never reaches the system on Linux, so this thread
    /// showed its starter's name (a pool thread's, "oot.default-qos"). Linux keeps 15 bytes; the
    /// name is cut there on a character boundary.
    static func nameCurrentThread(_ name: String) {
        var kept = ""
        for character in name {
            guard kept.utf8.count + character.utf8.count <= 15 else { break }
            kept.append(character)
        }
        // Through the file: glibc's `pthread_setname_np` is not in Swift's Glibc module.
        try? kept.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
    }
}
