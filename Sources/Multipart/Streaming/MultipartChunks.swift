/// The body as an `AsyncSequence` of byte chunks (each at most the chunk size), for HTTP
/// clients that stream a request body. Iterating again starts again from the first byte (a
/// retried upload re-reads its file). Throws ``MultipartError``.
public struct MultipartChunks: AsyncSequence, Sendable {
    public typealias Element = [UInt8]

    let segments: [Segment]
    let chunkSize: Int
    let problem: MultipartError?

    public struct AsyncIterator: AsyncIteratorProtocol {
        var reader: SegmentReader
        var problem: MultipartError?

        public mutating func next() async throws(MultipartError) -> [UInt8]? {
            if let problem { throw problem }
            return try reader.next()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: SegmentReader(segments: segments, chunkSize: chunkSize), problem: problem)
    }
}
