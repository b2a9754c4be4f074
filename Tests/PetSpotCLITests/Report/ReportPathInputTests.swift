import Testing
@testable import PetSpotCLI

/// Paths typed or completed at the photo question.
@Suite struct ReportPathInputTests {
    @Test(arguments: [
        ("'/photos/rex.jpg'", "/photos/rex.jpg"),
        ("~/rex.jpg", "/home/me/rex.jpg"),
        ("/photos/my\\ dog\\ \\(1\\).jpg", "/photos/my dog (1).jpg"),
        ("~/a\\\\b.jpg", "/home/me/a\\b.jpg"),
    ])
    func quotesTildeAndBackslashEscapesAreUndone(typed: String, path: String) {
        #expect(PathInput.expand(typed, home: "/home/me", exists: { _ in false }) == path)
    }

    @Test func aNameWithABackslashIsKeptWhenThatFileExists() {
        #expect(PathInput.expand("/photos/a\\ b.jpg", home: "/home/me", exists: { $0 == "/photos/a\\ b.jpg" })
            == "/photos/a\\ b.jpg")
    }
}
