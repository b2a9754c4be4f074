import Dispatch

/// JPEG through libjpeg-turbo, a strip of scanlines at a time, with DCT-domain downscaling.
///
/// `prepare` never holds the full-size image: rows go straight into a ``StreamingResizer``, on a
/// second thread when there are two, so decoding and resizing overlap (as vipsthumbnail does).
/// Warnings matter: libjpeg only *warns* on a file that ends early ("Premature end of JPEG file")
/// and pads it with grey; that is treated as truncation. "Extraneous bytes before marker" is
/// common in real files and tolerated. See https://libjpeg-turbo.org/Documentation/Documentation
struct JPEGDecoder: ImageDecoding {
    /// Rows decoded per strip handed to the resizer.
    static let stripRows = 16

    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> PixelBuffer in
            let stream = try JPEGStream(data, scaleDenominator: Self.scaleDenominator(info.storedSize, minimumLongEdge: minimumLongEdge))
            var pixels = [UInt8](repeating: 0, count: stream.width * stream.height * stream.channels)
            let stride = stream.width * stream.channels
            var row = 0
            try pixels.withUnsafeMutableBufferPointer { (out) throws(PhotoError) in
                while row < stream.height {
                    let count = try stream.read(into: out.baseAddress! + row * stride, stride: stride, rows: stream.height - row)
                    guard count > 0 else { break }
                    row += count
                }
            }
            try stream.finish()
            return PixelBuffer(width: stream.width, height: stream.height, channels: stream.channels, pixels: pixels)
        }
    }

    func decodeResized(_ bytes: [UInt8], info: ImageInfo, request: DecodeRequest) throws(PhotoError) -> DecodedImage {
        let scale = Self.scaleDenominator(info.storedSize, minimumLongEdge: request.minimumLongEdge)
        if scale == 1 && info.storedSize == request.target {
            // Already the right size: no resampling at all.
            let pixels = try decode(bytes, info: info, minimumLongEdge: nil)
            return DecodedImage(pixels: pixels, decodedSize: request.target)
        }
        return try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> DecodedImage in
            let stream = try JPEGStream(data, scaleDenominator: scale)
            let decodedSize = PixelSize(width: stream.width, height: stream.height)
            let resizer = StreamingResizer(source: decodedSize, target: request.target, channels: stream.channels,
                                           filter: request.filter)
            if request.threads > 1 {
                try StripPipeline.run(stream, into: resizer, stripRows: Self.stripRows)
            } else {
                let stride = stream.width * stream.channels
                var strip = [UInt8](repeating: 0, count: stride * Self.stripRows)
                try strip.withUnsafeMutableBufferPointer { (buffer) throws(PhotoError) in
                    while case let count = try stream.read(into: buffer.baseAddress!, stride: stride, rows: Self.stripRows), count > 0 {
                        resizer.push(buffer.baseAddress!, count: count, stride: stride)
                    }
                }
            }
            try stream.finish()
            return DecodedImage(pixels: resizer.finish(), decodedSize: decodedSize)
        }
    }

    /// The largest of 8, 4, 2 (else 1) whose 1/n-scaled long edge still covers `minimumLongEdge`.
    ///
    /// Only power-of-two factors: libjpeg-turbo has SIMD code for them, while its other M/8
    /// scaled IDCTs decode barely faster than full size (64 vs 70 ms on a 12 MP photo) and alias
    /// more (SSIM 0.944 vs 0.995 on the corpus's 18 MP q100 photo at 3/8 vs 4/8).
    static func scaleDenominator(_ size: PixelSize, minimumLongEdge: Int?) -> Int {
        guard let target = minimumLongEdge else { return 1 }
        return [8, 4, 2].first { (size.longEdge + $0 - 1) / $0 >= target } ?? 1
    }
}

/// Decodes strips on the calling thread while a worker thread resizes the previous strip.
private enum StripPipeline {
    private final class Shared: @unchecked Sendable {
        let strips: [UnsafeMutablePointer<UInt8>]
        var counts = [0, 0]
        /// Starts at 0 and is signalled twice: libdispatch traps when a semaphore is freed below its initial value.
        let free = DispatchSemaphore(value: 0)
        let filled = DispatchSemaphore(value: 0)
        let resizer: StreamingResizer
        let stride: Int

        init(resizer: StreamingResizer, stride: Int, stripRows: Int) {
            self.resizer = resizer
            self.stride = stride
            strips = (0..<2).map { _ in .allocate(capacity: stride * stripRows) }
            free.signal()
            free.signal()
        }

        deinit { strips.forEach { $0.deallocate() } }
    }

    static func run(_ stream: JPEGStream, into resizer: StreamingResizer, stripRows: Int) throws(PhotoError) {
        let shared = Shared(resizer: resizer, stride: stream.width * stream.channels, stripRows: stripRows)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .userInitiated).async {
            var slot = 0
            while true {
                shared.filled.wait()
                let count = shared.counts[slot]
                if count == 0 { break }
                shared.resizer.push(shared.strips[slot], count: count, stride: shared.stride)
                shared.free.signal()
                slot ^= 1
            }
            done.signal()
        }
        var slot = 0
        var failure: PhotoError?
        while true {
            shared.free.wait()
            let count: Int
            do {
                count = try stream.read(into: shared.strips[slot], stride: shared.stride, rows: stripRows)
            } catch {
                failure = error
                count = 0
            }
            shared.counts[slot] = count
            shared.filled.signal()
            if count == 0 { break }
            slot ^= 1
        }
        done.wait()
        if let failure { throw failure }
    }
}
