import Foundation

/// The crafted hostile files in Tests/HostileInputs (written by its make.py): each reproduces one
/// way outside input broke beacontop, and is also a fuzz seed (docs/fuzzing.md).
public enum HostileInputs {
    public static let directory = SharedData.repositoryRoot.appendingPathComponent("Tests/HostileInputs")

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
}
