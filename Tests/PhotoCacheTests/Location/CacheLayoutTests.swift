import Foundation
import Testing
@testable import PhotoCache

@Suite struct CacheLayoutTests {
    @Test func photosAreSpreadByTheFirstTwoHexDigitsOfTheKey() {
        let key = String(repeating: "ab", count: 32)
        #expect(CacheLayout.relativePath(key: key, fileExtension: "jpg") == "photos/ab/\(key).jpg")
    }

    @Test func createsTheCacheFolderAndItsParentsWithMode0700() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let layout = CacheLayout(root: URL(fileURLWithPath: temp.path("a/b/petspot")))
        try layout.createDirectories()
        for path in [temp.path("a"), temp.path("a/b"), layout.root, layout.photosPath, layout.tmpPath] {
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o700, "\(path)")
        }
    }
}
