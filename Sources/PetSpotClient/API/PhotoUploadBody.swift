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

    /// The request body; `progress` is told the bytes the server at `port` has taken so far
    /// (handed to the connection and acknowledged, ``SendQueue``) and the total.
    func requestBody(port: Int, progress: @escaping @Sendable (Int64, Int64) -> Void) -> HTTPClientRequest.Body {
        let total = form.contentLength
        let chunks = form.chunks().counting(total: total, port: port, progress: progress)
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

/// Chunks as ByteBuffers, counted as the server takes them: what was handed over less what the
/// kernel still holds unacknowledged (``SendQueue``).
struct CountingChunks<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == [UInt8] {
    typealias Element = ByteBuffer
    let base: Base
    let total: Int64
    let port: Int
    let progress: @Sendable (Int64, Int64) -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        var handed: Int64 = 0
        let total: Int64
        let port: Int
        let progress: @Sendable (Int64, Int64) -> Void

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            if handed > 0 { report() }
            handed += Int64(chunk.count)
            // The client may not ask past the body's length: the last chunk starts the drain.
            if handed >= total { drain() }
            return ByteBuffer(bytes: chunk)
        }

        /// When the send queue was last read: at most ten times a second (each read scans
        /// this process's descriptors and the kernel's socket table).
        var lastReport = ContinuousClock.now - .seconds(1)

        private mutating func report() {
            let now = ContinuousClock.now
            guard now - lastReport >= .milliseconds(100) else { return }
            lastReport = now
            progress(Swift.max(0, handed - SendQueue.pending(toPort: port)), total)
        }

        /// Once everything is handed over: reports, beside the request, as the send queue
        /// empties (for at most 2 s). The whole body counts as taken when the server answers
        /// (the submitter says so then).
        private func drain() {
            let (port, handed, total, progress) = (port, handed, total, progress)
            Task {
                let started = ContinuousClock.now
                while case let pending = SendQueue.pending(toPort: port), pending > 0, ContinuousClock.now - started < .seconds(2) {
                    progress(Swift.max(0, handed - pending), total)
                    try? await Task.sleep(for: .milliseconds(100))
                }
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), total: total, port: port, progress: progress)
    }
}

extension AsyncSequence where Self: Sendable, Element == [UInt8] {
    func counting(total: Int64, port: Int, progress: @escaping @Sendable (Int64, Int64) -> Void) -> CountingChunks<Self> {
        CountingChunks(base: self, total: total, port: port, progress: progress)
    }
}
