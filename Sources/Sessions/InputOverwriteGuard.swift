import Glibc
import PacketSources

/// Refuses an output file (`--record`, `--export`) that is one of the run's input files: opening it
/// truncates it before the first packet is read, so `scan walk.btsnoop --record walk.btsnoop` left
/// a 16-byte header where the recording was and replayed nothing. The same file is the same device
/// and inode, whatever path names it (a link, `./`, a symbolic link).
public enum InputOverwriteGuard {
    /// The inputs a source spec reads from a file: the capture or script, or a simulation's catalog.
    public static func inputs(of spec: SourceSpec, catalog: String?) -> [String] {
        var paths = catalog.map { [$0] } ?? []
        switch spec {
        case .file(let path), .simulation(let path): paths.append(path)
        default: break
        }
        return paths
    }

    /// Why `output` must not be written (it is the input `flag` would destroy), or nil.
    public static func refusal(output: String, flag: String, inputs: [String]) -> String? {
        guard let target = identity(output) else { return nil }
        guard let input = inputs.first(where: { identity($0) == target }) else { return nil }
        return "\(flag) \(output) is the input \(input): writing it would destroy it; choose another file"
    }

    private static func identity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }
}
