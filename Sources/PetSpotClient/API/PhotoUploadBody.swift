import AsyncHTTPClient
import Multipart
import NIOCore
import PetSpot

/// The photo step's body: multipart/form-data with the file part `photo`, streamed from the
/// cached file in fixed-size chunks with its exact length up front (Content-Length, never
/// chunked encoding, never a copy of the file).
public struct PhotoUploadBody: Sendable {
    private let form: MultipartFormData

    /// - Throws: ``SubmissionError/photoUnavailable(path:reason:)`` when the cached file is gone.
    public init(photo: PhotoReference) throws(SubmissionError) {
        var form = MultipartFormData()
        do {
            try form.addFile(name: AnnouncementsAPI.photoPartName, filename: Self.filename(for: photo),
                             contentType: photo.mimeType, path: photo.path)
        } catch {
            throw .photoUnavailable(path: photo.path, reason: error.description)
        }
        self.form = form
    }

    public var contentType: String { form.contentType }
    public var contentLength: Int64 { form.contentLength }

    /// The request body; `progress` is told the bytes handed to the connection so far.
    func requestBody(progress: @escaping @Sendable (Int64, Int64) -> Void) -> HTTPClientRequest.Body {
        let total = form.contentLength
        let chunks = form.chunks().counting(total: total, progress: progress)
        return .stream(chunks, length: .known(total))
    }

    private static func filename(for photo: PhotoReference) -> String {
        switch photo.mimeType {
        case "image/png": "photo.png"
        case "image/webp": "photo.webp"
        default: "photo.jpg"
        }
    }
}

/// Chunks as ByteBuffers, counted as they are handed over.
struct CountingChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == [UInt8] {
    typealias Element = ByteBuffer
    let base: Base
    let total: Int64
    let progress: @Sendable (Int64, Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var sent: Int64 = 0
        let total: Int64
        let progress: @Sendable (Int64, Int64) -> Void

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            sent += Int64(chunk.count)
            progress(sent, total)
            return ByteBuffer(bytes: chunk)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), total: total, progress: progress)
    }
}

extension AsyncSequence where Self: Sendable, Element == [UInt8] {
    func counting(total: Int64, progress: @escaping @Sendable (Int64, Int64) -> Void) -> CountingChunks<Self> {
        CountingChunks(base: self, total: total, progress: progress)
    }
}
