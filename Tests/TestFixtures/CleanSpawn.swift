import Glibc

/// Starts a child process with an empty signal mask and default signal actions. Test threads block
/// SIGINT, SIGTERM and SIGWINCH, and a child started with Foundation's `Process` inherits that
/// mask: a mosquitto or tmux server started so never sees the SIGTERM meant to stop it. It
/// inherits no descriptor but its standard input, output and error: posix_spawn passes on every
/// descriptor opened without close-on-exec, and a broker or tmux server started by one test while
/// another test held such a socket kept that socket open for its whole life, so closing it no
/// longer ended the connection (LiveSourceRestartTests' "a loss cancels the schedule" waited 20 s
/// for a loss that never came, in a full run, once).
public enum CleanSpawn {
    /// The child's pid; its standard output and error go to `output` (default /dev/null).
    public static func start(_ arguments: [String], output: String = "/dev/null") -> pid_t? {
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        guard closeFrom(&actions, 3) == 0 else { return nil }
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 on), which Swift's Glibc module does
    /// not declare.
    private static let closeFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            fatalError("glibc 2.34 or later is needed: no posix_spawn_file_actions_addclosefrom_np")
        }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    /// Waits for `pid` to end; its exit status, or -1 when a signal ended it.
    @discardableResult
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }

    /// True while `pid` has not ended (and been reaped).
    public static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }
}
