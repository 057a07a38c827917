import Foundation
import Testing
import TestFixtures

/// Every relative link in README.md and docs/ leads to a file of the repository, and every `#anchor`
/// to a heading there, by GitHub's anchor rules (issue 10: the README links into docs/, and docs link
/// into each other by heading).
@Suite struct DocumentationLinkTests {
    @Test func everyRelativeLinkInReadmeAndDocsLeadsSomewhere() throws {
        let checker = DocumentationLinkChecker(root: SharedData.repositoryRoot)
        let files = checker.documentationFiles()
        let names = Set(files.map(\.lastPathComponent))
        try #require(names.isSuperset(of: ["README.md", "commands.md", "screen.md", "formats.md"]), "found only \(names.sorted())")
        let report = try checker.check(files)
        // The docs link to each other over a hundred times: finding few means the link parser broke,
        // and a checker that checks nothing passes.
        #expect(report.linksChecked >= 50, "only \(report.linksChecked) relative links found in \(files.count) files")
        #expect(report.broken.isEmpty, "broken links:\n\(report.broken.joined(separator: "\n"))")
    }

    @Test func theCheckerReportsMissingFilesMissingAnchorsAndLinksLeavingTheRepository() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("beacontop-links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs/guides"), withIntermediateDirectories: true)
        try """
            # Title
            [good](docs/a.md#the-heading) [bad anchor](docs/a.md#nope) [missing](docs/missing.md)
            [here](#title) [not here](#elsewhere) [web](https://example.com/x.md) [dir](docs/)
            [outside](../outside.md) `[code](docs/gone.md)` ![image](docs/pic.png)
            [ref]: docs/guides/g.md#explicit
            """.write(to: root.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        try """
            ## The heading
            [up](../README.md#title) [sibling](guides/g.md) [anchor on a non-Markdown file](pic.png#x)
            """.write(to: root.appendingPathComponent("docs/a.md"), atomically: true, encoding: .utf8)
        try "<a id=\"explicit\"></a>text\n".write(to: root.appendingPathComponent("docs/guides/g.md"), atomically: true, encoding: .utf8)
        try "png".write(to: root.appendingPathComponent("docs/pic.png"), atomically: true, encoding: .utf8)

        let checker = DocumentationLinkChecker(root: root)
        let files = checker.documentationFiles()
        #expect(files.map(\.lastPathComponent) == ["README.md", "a.md", "g.md"])
        let report = try checker.check(files)
        #expect(report.linksChecked == 12)
        #expect(report.broken == [
            "README.md:2: 'docs/a.md#nope': docs/a.md has no heading or <a id> with anchor '#nope'",
            "README.md:2: 'docs/missing.md': no such file docs/missing.md",
            "README.md:3: '#elsewhere': README.md has no heading or <a id> with anchor '#elsewhere'",
            "README.md:4: '../outside.md': leads outside the repository",
            "docs/a.md:2: 'pic.png#x': an anchor can only be checked in a Markdown file",
        ])
    }

    @Test func anchorsFollowGitHubsRules() {
        #expect(GitHubAnchor.slug("Ranging: formulas and defaults") == "ranging-formulas-and-defaults")
        #expect(GitHubAnchor.slug("`beacontop scan`") == "beacontop-scan")
        #expect(GitHubAnchor.slug("Silence, memory and limits") == "silence-memory-and-limits")
        #expect(GitHubAnchor.slug("A -> B") == "a---b")
        #expect(GitHubAnchor.slug("snake_case and kebab-case") == "snake_case-and-kebab-case")
        #expect(GitHubAnchor.slug("Über café · 2") == "über-café--2")
        #expect(GitHubAnchor.slug("[Linked](x.md) <em>text</em>") == "linked-text")
        #expect(GitHubAnchor.slugs(forHeadings: ["Keys", "Keys", "Other", "Keys"]) == ["keys", "keys-1", "other", "keys-2"])
    }

    @Test func linksInCodeAreNotLinks() {
        let document = MarkdownDocument(text: """
            See [one](a.md) and `[two](b.md)`, and [three](c.md "a title").
            ```
            [four](d.md)
            ```
            [five]: e.md#x
            """)
        #expect(document.links == [
            MarkdownDocument.Link(line: 1, target: "a.md"),
            MarkdownDocument.Link(line: 1, target: "c.md"),
            MarkdownDocument.Link(line: 5, target: "e.md#x"),
        ])
    }
}
