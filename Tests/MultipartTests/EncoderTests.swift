import Foundation
import Multipart
import Testing

/// What a WHATWG-unaware parser reads back: the browser's escapes left in place.
func browserEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
}

@Suite struct EncoderTests {
    @Test func fieldsAndFilesReadBackThroughMultipartKit() async throws {
        var form = MultipartFormData()
        form.addField(name: "description", value: "He answers to \"Rex\"\r\nred collar, $50 🐶")
        let photo = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        form.addFile(name: "photo", filename: "dog.jpg", contentType: "image/jpeg", data: photo)
        let body = try await form.collected(chunkSize: 4096)
        #expect(Int64(body.count) == form.contentLength)
        let parts = try KitParser.parse(body, boundary: form.boundary)
        #expect(parts.count == 2)
        #expect(parts[0] == ParsedPart(name: "description", filename: nil, contentType: nil,
                                       body: Array("He answers to \"Rex\"\r\nred collar, $50 🐶".utf8)))
        #expect(parts[1] == ParsedPart(name: "photo", filename: "dog.jpg", contentType: "image/jpeg", body: photo))
        #expect(form.contentType == "multipart/form-data; boundary=\(form.boundary)")
    }

    @Test func everyByteValueAndAnEmptyFileSurvive() async throws {
        let everyByte = (0..<4096).map { UInt8($0 % 256) }
        var form = MultipartFormData()
        form.addFile(name: "bytes", filename: "all.bin", contentType: "application/octet-stream", data: everyByte)
        try form.addFile(name: "empty", filename: "empty.txt", contentType: "text/plain", path: try temporaryFile([]))
        let parts = try KitParser.parse(try await form.collected(chunkSize: 7), boundary: form.boundary)
        #expect(parts.map(\.body) == [everyByte, []])
        #expect(parts.map(\.filename) == ["all.bin", "empty.txt"])
    }

    @Test func namesAreWrittenTheWayBrowsersWriteThem() async throws {
        var form = MultipartFormData(boundary: "XyZ")
        form.addField(name: "a\"b\r\nc\\d é🐶$", value: "v")
        try form.addFile(name: "f", filename: "/home/me/pics/my \"dog\".jpg", contentType: "image/jpeg\r\nX-Injected: 1",
                         path: try temporaryFile([1, 2, 3]))
        let text = String(decoding: try await form.collected(), as: UTF8.self)
        #expect(text.contains(#"name="a%22b%0D%0Ac\\d é🐶$""#))
        #expect(text.contains(#"filename="my %22dog%22.jpg""#))
        #expect(!text.contains("\r\nX-Injected"))
        #expect(text.contains("Content-Type: image/jpegX-Injected: 1"))
    }

    @Test(arguments: ["C:\\Users\\me\\dog.jpg", "../../etc/passwd", "dir/sub/", "plain.png"])
    func aFilenameIsReducedToItsLastComponent(filename: String) async throws {
        var form = MultipartFormData()
        form.addFile(name: "photo", filename: filename, contentType: "image/png", data: [0])
        let parts = try KitParser.parse(try await form.collected(), boundary: form.boundary)
        let expected = String(filename.split(separator: "/", omittingEmptySubsequences: false).last!
            .split(separator: "\\", omittingEmptySubsequences: false).last!)
        #expect(parts.first?.filename == expected)
    }

    @Test func chunksNeverExceedTheChunkSizeAndAddUpToTheLength() async throws {
        var form = MultipartFormData()
        form.addField(name: "x", value: String(repeating: "y", count: 10_000))
        try form.addFile(name: "f", filename: "f.bin", contentType: "application/octet-stream",
                         path: try temporaryFile([UInt8](repeating: 7, count: 100_003)))
        var total: Int64 = 0
        for try await chunk in form.chunks(chunkSize: 1000) {
            #expect(chunk.count <= 1000 && !chunk.isEmpty)
            total += Int64(chunk.count)
        }
        #expect(total == form.contentLength)
        var written: [UInt8] = []
        try form.write(chunkSize: 333) { written += $0 }
        #expect(written == (try await form.collected()))
    }

    @Test func aRandomBoundaryHasAtLeast128BitsFromTheSafeAlphabet() {
        var seen: Set<String> = []
        for _ in 0..<200 {
            let boundary = MultipartFormData().boundary
            #expect((1...70).contains(boundary.utf8.count))
            let random = boundary.dropFirst("----petspot-".count)
            #expect(random.count >= 22, "22 of 62 letters and digits is 131 bits")
            #expect(random.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            seen.insert(boundary)
        }
        #expect(seen.count == 200)
    }

    @Test func aRandomBoundaryFoundInAPartIsReplaced() async throws {
        var form = MultipartFormData()
        let first = form.boundary
        form.addField(name: "trap", value: "before --\(first) after \r\n--\(first)--\r\n")
        #expect(form.boundary != first)
        let parts = try KitParser.parse(try await form.collected(), boundary: form.boundary)
        #expect(parts.count == 1)
        #expect(parts[0].body == Array("before --\(first) after \r\n--\(first)--\r\n".utf8))
    }

    @Test func aCallersBoundaryThatCannotWorkIsRefusedWhenStreaming() async throws {
        var colliding = MultipartFormData(boundary: "abc")
        colliding.addField(name: "x", value: "xxabcxx")
        await #expect(throws: MultipartError.boundaryInContent(boundary: "abc")) { _ = try await colliding.collected() }
        let invalid = MultipartFormData(boundary: String(repeating: "a", count: 71))
        #expect(throws: MultipartError.self) { try invalid.write { _ in } }
    }

    @Test func aBoundaryWithSpecialCharactersIsQuotedInTheHeader() async throws {
        var form = MultipartFormData(boundary: "a b:c=d")
        form.addField(name: "x", value: "1")
        #expect(form.contentType == #"multipart/form-data; boundary="a b:c=d""#)
        #expect(try KitParser.parse(try await form.collected(), boundary: "a b:c=d").map(\.body) == [Array("1".utf8)])
        #expect(MultipartFormData(boundary: "plain-Boundary_1").contentType == "multipart/form-data; boundary=plain-Boundary_1")
    }

    @Test func aFIFOPutInAFilesPlaceIsRefusedWithoutHanging() async throws {
        let path = try temporaryFile([1, 2, 3])
        var form = MultipartFormData()
        try form.addFile(name: "f", filename: "f", contentType: "application/octet-stream", path: path)
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        await #expect(throws: MultipartError.notARegularFile(path: path)) { _ = try await form.collected() }
    }

    @Test func aFileThatChangesWhileStreamingIsAnErrorNotALie() async throws {
        let path = try temporaryFile([UInt8](repeating: 1, count: 5000))
        var form = MultipartFormData()
        try form.addFile(name: "f", filename: "f", contentType: "application/octet-stream", path: path)
        try Data([UInt8](repeating: 1, count: 4000)).write(to: URL(fileURLWithPath: path))
        await #expect(throws: MultipartError.fileChanged(path: path, expected: 5000, actual: 4000)) { _ = try await form.collected() }
        try Data([UInt8](repeating: 1, count: 6000)).write(to: URL(fileURLWithPath: path))
        await #expect(throws: MultipartError.self) { _ = try await form.collected() }
    }

    @Test func missingFilesAndFoldersAreRefusedWhenAdded() throws {
        var form = MultipartFormData()
        #expect(throws: MultipartError.self) {
            try form.addFile(name: "f", filename: "f", contentType: "text/plain", path: "/nonexistent/petspot/file")
        }
        #expect(throws: MultipartError.notARegularFile(path: "/tmp")) {
            try form.addFile(name: "f", filename: "f", contentType: "text/plain", path: "/tmp")
        }
    }

    @Test func aLargeFileStreamsInBoundedChunks() async throws {
        let size = 8 << 20
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 4096) { bytes[index] = UInt8(truncatingIfNeeded: index >> 12) }
        let path = try temporaryFile(bytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var form = MultipartFormData()
        try form.addFile(name: "photo", filename: "big.bin", contentType: "application/octet-stream", path: path)
        var largest = 0
        var body = Data()
        for try await chunk in form.chunks() {
            largest = max(largest, chunk.count)
            body.append(contentsOf: chunk)
        }
        #expect(largest == 65536)
        #expect(Int64(body.count) == form.contentLength)
        // The file's bytes sit between the part's header block and the closing CRLF + boundary.
        let start = try #require(body.range(of: Data("\r\n\r\n".utf8))).upperBound
        #expect(body[start..<(start + size)] == Data(bytes))
        #expect(body[(start + size)...] == Data("\r\n--\(form.boundary)--\r\n".utf8))
    }
}
