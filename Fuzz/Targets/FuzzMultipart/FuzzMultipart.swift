import Foundation
import FuzzSupport
import NIOCore
@testable import PetSpotServer

/// The server's photo-upload intake: the Content-Type's boundary, then the body streamed through
/// multipart-kit's parser into an upload file, in chunks. Input: the Content-Type line, then the body.
///
/// Invariants: a refusal is a 400 or a 413; an accepted body holds exactly one complete `photo`
/// part within the limit, and the file holds exactly that part's bytes: they appear in the body
/// between the end of a part's headers and the next delimiter.
func fuzzMultipart(_ bytes: [UInt8]) -> Int32 {
    let (contentType, body) = Fuzz.splitLine(bytes)
    let boundary: String
    do {
        boundary = try MultipartPhotoIntake.boundary(contentType: contentType)
    } catch {
        Fuzz.require(error.status.code == 400, "the Content-Type was refused with \(error)")
        return 0
    }
    Fuzz.require((1...70).contains(boundary.utf8.count), "a boundary of \(boundary.utf8.count) bytes")
    let intake = MultipartPhotoIntake(maxPhotoBytes: 8 * 1024)
    let chunkSize = 1 + body.count % 61
    let chunks = stride(from: 0, to: body.count, by: chunkSize).map { ByteBuffer(bytes: body[$0..<min($0 + chunkSize, body.count)]) }
    let outcome = Fuzz.blocking { () -> (failure: APIFailure?, photo: [UInt8]) in
        let file: UploadFile
        do { file = try UploadFile(in: Fuzz.scratch) } catch { fatalError("cannot create an upload file: \(error)") }
        do {
            try await intake.receive(Chunks(chunks: chunks), boundary: boundary, into: file)
        } catch {
            guard let failure = error as? APIFailure else { fatalError("the intake threw \(error), not an APIFailure") }
            return (failure, [])
        }
        return (nil, file.prefix(file.byteCount))
    }
    if let failure = outcome.failure {
        Fuzz.require([400, 413].contains(failure.status.code), "the body was refused with \(failure)")
        return 0
    }
    Fuzz.require(outcome.photo.count <= intake.maxPhotoBytes, "a photo of \(outcome.photo.count) bytes passed the limit")
    let needle = Array("\r\n\r\n".utf8) + outcome.photo + Array("\r\n--\(boundary)".utf8)
    Fuzz.require(contains(body, needle), "the stored photo is not a part of the body")
    return 0
}

/// Naive search; inputs are at most a few kilobytes.
private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains { start in
        haystack[start] == needle[0] && haystack[start..<start + needle.count].elementsEqual(needle)
    }
}

/// A body arriving in the given chunks.
private struct Chunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let chunks: [ByteBuffer]

    struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<ByteBuffer>
        mutating func next() async throws -> ByteBuffer? { remaining.popFirst() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}
