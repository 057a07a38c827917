import Foundation

/// Checks the relative links of Markdown files the way GitHub would follow them: the file (or
/// directory) must exist inside the repository, and a `#anchor` must name a heading or an explicit
/// `<a id>` of the Markdown file it points into. Links with a scheme (`https:`, `mailto:`) are not
/// followed: the tests run offline.
struct DocumentationLinkChecker {
    /// The repository root: `/path` links start there, and no link may leave it.
    let root: URL

    /// README.md and every Markdown file under docs/, in a stable order.
    func documentationFiles() -> [URL] {
        var files = [root.appendingPathComponent("README.md")]
        let docs = root.appendingPathComponent("docs")
        if let walker = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where url.pathExtension == "md" {
                files.append(url.standardizedFileURL)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    struct Report {
        var linksChecked = 0
        /// One line per broken link: `FILE:LINE: 'TARGET': why`.
        var broken: [String] = []
    }

    func check(_ files: [URL]) throws -> Report {
        var report = Report()
        var anchorCache: [String: Set<String>] = [:]
        for file in files {
            let document = try MarkdownDocument(contentsOf: file)
            for link in document.links where link.target.firstMatch(of: /^[A-Za-z][A-Za-z0-9+.-]*:/) == nil {
                report.linksChecked += 1
                if let problem = try problem(with: link.target, from: file, anchorCache: &anchorCache) {
                    report.broken.append("\(relativePath(of: file)):\(link.line): '\(link.target)': \(problem)")
                }
            }
        }
        return report
    }

    /// Why a relative link is broken, or nil when it leads somewhere.
    private func problem(with target: String, from file: URL, anchorCache: inout [String: Set<String>]) throws -> String? {
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = String(parts[0])
        let anchor = parts.count > 1 ? String(parts[1]) : nil
        guard let path = rawPath.removingPercentEncoding else { return "the path is not valid percent-encoding" }
        let destination: URL
        if path.isEmpty {
            destination = file
        } else if path.hasPrefix("/") {
            destination = root.appendingPathComponent(String(path.dropFirst())).standardizedFileURL
        } else {
            destination = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
        }
        let rootPath = root.standardizedFileURL.path
        guard destination.path == rootPath || destination.path.hasPrefix(rootPath + "/") else {
            return "leads outside the repository"
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else {
            return "no such file \(relativePath(of: destination))"
        }
        guard let anchor else { return nil }
        guard !isDirectory.boolValue, destination.pathExtension == "md" else {
            return "an anchor can only be checked in a Markdown file"
        }
        if anchorCache[destination.path] == nil {
            anchorCache[destination.path] = try MarkdownDocument(contentsOf: destination).anchors
        }
        if anchorCache[destination.path]?.contains(anchor) == true { return nil }
        return "\(relativePath(of: destination)) has no heading or <a id> with anchor '#\(anchor)'"
    }

    private func relativePath(of url: URL) -> String {
        let rootPath = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(rootPath) ? String(path.dropFirst(rootPath.count)) : path
    }
}
