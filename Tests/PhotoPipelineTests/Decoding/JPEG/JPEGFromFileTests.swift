import Foundation
import Testing
@testable import PhotoPipeline

/// A JPEG prepared from its file is streamed through a window, never read whole:
/// the result must be exactly what the same bytes in memory give, and so must every refusal.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct JPEGFromFileTests {
    /// Every JPEG (by name) in the corpus and the project's test images.
    static func jpegFiles() throws -> [String] {
        var files: [String] = []
        for root in [Corpus.root!.path, Fixtures.url("").path] {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker where relative.lowercased().hasSuffix(".jpg") || relative.lowercased().hasSuffix(".jpeg") {
                files.append(root + "/" + relative)
            }
        }
        return files.sorted()
    }

    static func outcome(_ body: () throws(PhotoError) -> PreparedPhoto) -> Result<[UInt8], PhotoError> {
        do throws(PhotoError) { return .success(try body().data) } catch { return .failure(error) }
    }

    @Test(arguments: [OutputFormat.jpeg, .webp])
    func streamedFromTheFileEqualsPreparedFromMemory(format: OutputFormat) throws {
        let files = try Self.jpegFiles()
        #expect(files.count >= 30, "\(files.count) JPEG files")
        for size in [2048, 320] {
            let options = PrepareOptions(maxDimension: size, encoding: EncodingOptions(format: format), threads: 2)
            for path in files {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let fromMemory = Self.outcome { () throws(PhotoError) in try PhotoPipeline.prepare(bytes, options: options) }
                let fromFile = Self.outcome { () throws(PhotoError) in try PhotoPipeline.prepare(contentsOf: path, options: options) }
                switch (fromMemory, fromFile) {
                case (.success(let a), .success(let b)): #expect(a == b, "\(path) at \(size) px differs")
                case (.failure(let a), .failure(let b)): #expect(a == b, "\(path): \(a) in memory, \(b) from the file")
                default: Issue.record("\(path) at \(size) px: \(fromMemory) in memory, \(fromFile) from the file")
                }
            }
        }
    }

    /// A file cut short while it is read is said to have shrunk, not to be a damaged photo.
    @Test func aFileThatShrinksWhileItIsReadIsSaidToHaveShrunk() throws {
        let source = try Corpus.bytes("photos/olympus-ep3_4032x3024.jpg")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shrinks-\(UUID().uuidString).jpg").path
        try Data(source).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let file = try PhotoFile(path)
        #expect(truncate(path, off_t(source.count / 2)) == 0)
        #expect {
            _ = try PhotoPipeline.prepare(file, options: PrepareOptions())
        } throws: { error in
            guard case PhotoError.unreadableFile(let where_, let reason) = error else { return false }
            return where_ == path && reason.hasPrefix("it shrank from \(source.count) to \(source.count / 2) bytes while it was read")
        }
    }
}
