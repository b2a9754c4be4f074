/// JPEG through libjpeg-turbo, a strip of scanlines at a time, with DCT-domain downscaling: the one
/// entry point of every way a JPEG is decoded (``Strategy``; the pipeline chooses,
/// ``DecodePlan/choose(_:jpegHeader:resize:planar:)``).
///
/// `prepare` never holds the full-size image: rows go straight into the resizers, which with two
/// or more threads are jobs beside the decoder on the resize's workers, so decoding and resizing
/// overlap (as vipsthumbnail does).
/// Warnings matter: libjpeg only *warns* on a file that ends early ("Premature end of JPEG file")
/// and pads it with grey; that is treated as truncation. "Extraneous bytes before marker" is
/// common in real files and tolerated. See https://libjpeg-turbo.org/Documentation/Documentation
struct JPEGDecoder: ImageDecoding {
    /// Rows decoded per strip handed to the resizer.
    static let stripRows = 16

    func decode(_ bytes: [UInt8], info: ImageInfo, minimumLongEdge: Int?) throws(PhotoError) -> PixelBuffer {
        try decodeWhole(bytes, scale: Self.scaleDenominator(info.storedSize, minimumLongEdge: minimumLongEdge), orientation: .up)
    }

    /// The ways one JPEG is decoded.
    enum Strategy: Sendable, Equatable {
        /// Already the target size, to pixels: no resampling, rows straight to their upright places.
        case exact
        /// Two decompressors at once on two row bands, cut at a restart marker
        /// (``decodeBanded(_:scale:resize:planar:)``).
        case rowBands
        /// Two decompressors at once on a progressive file's luma and chroma, each reading its own
        /// scans (``decodeByComponent(_:info:scale:resize:planar:)``).
        case lumaChroma
        /// One decompressor, its rows streamed through the resizers.
        case stream
    }

    /// Whether the output needs no resampling at all: pixels at the file's own size.
    static func isExact(_ info: ImageInfo, resize: ResizeRequest, planar: PlanarOutput?) -> Bool {
        planar == nil && info.storedSize == resize.target
            && scaleDenominator(info.storedSize, minimumLongEdge: resize.minimumLongEdge) == 1
    }

    /// One stream, or no resampling when none is needed (two decompressors only when the pipeline's
    /// plan asks: ``decodeResized(_:info:resize:planar:strategy:)``).
    func decodeResized(_ bytes: [UInt8], info: ImageInfo, resize: ResizeRequest,
                       planar: PlanarOutput?) throws(PhotoError) -> DecodedImage {
        try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> DecodedImage in
            try decodeResized(.memory(data), info: info, resize: resize, planar: planar,
                              strategy: Self.isExact(info, resize: resize, planar: planar) ? .exact : .stream)
        }
    }

    /// Decodes `source` (from memory or streamed from a file) with `strategy`. A two-decompressor
    /// strategy the file turns out not to allow, or that fails, falls back to one stream, which
    /// decodes the file and reports its damage as it always has.
    func decodeResized(_ source: JPEGSource, info: ImageInfo, resize: ResizeRequest, planar: PlanarOutput?,
                       strategy: Strategy) throws(PhotoError) -> DecodedImage {
        let scale = Self.scaleDenominator(info.storedSize, minimumLongEdge: resize.minimumLongEdge)
        switch strategy {
        case .exact:
            return try DecodedImage(pixels: decodeWhole(source, scale: 1, orientation: resize.orientation),
                                    decodedSize: info.storedSize, isUpright: true)
        case .rowBands:
            if let planar, let decoded = decodeBanded(source, scale: scale, resize: resize, planar: planar) {
                return decoded
            }
        case .lumaChroma:
            if let planar, let decoded = decodeByComponent(source, info: info, scale: scale, resize: resize, planar: planar) {
                return decoded
            }
        case .stream:
            break
        }
        return try decodeStream(source, scale: scale, resize: resize, planar: planar)
    }

    /// One decompressor: the file's own planes resized into the output's (``decodePlanes``), or
    /// pixels streamed through the resizers, column bands as jobs on the resize's workers.
    private func decodeStream(_ source: JPEGSource, scale: Int, resize request: ResizeRequest,
                              planar: PlanarOutput?) throws(PhotoError) -> DecodedImage {
        do {
            let stream = try JPEGStream(source, scaleDenominator: scale, planes: planar != nil)
            if let planar, let planes = stream.planes {
                return try decodePlanes(stream, planes: planes, resize: request, planar: planar)
            }
            let decodedSize = PixelSize(width: stream.width, height: stream.height)
            let target = request.target
            var failure: PhotoError?
            // The resizers write straight into the result's storage: no full-size image, no copy.
            // Not zeroed first (zeroing is a pass over memory the resize writes anyway): every byte
            // is written once the resize completes, and an incomplete one is thrown away.
            let pixels = [UInt8](unsafeUninitializedCapacity: target.width * target.height * stream.channels) { buffer, count in
                count = buffer.count
                let resize = StreamingResize(source: decodedSize, target: target, channels: stream.channels,
                                             filter: request.filter, bands: request.threads,
                                             orientation: request.orientation, output: buffer.baseAddress!)
                let stride = stream.width * stream.channels
                let strips = StripBuffers(sizes: [stride * Self.stripRows])
                do throws(PhotoError) {
                    try StripPipeline.run(consumers: resize.bands.count, on: request.workers,
                                          read: { (slot) throws(PhotoError) in
                                              try stream.read(into: strips[slot, 0], stride: stride, rows: Self.stripRows)
                                          },
                                          consume: { consumer, slot, rows in
                                              resize.bands[consumer].push(strips[slot, 0], count: rows, stride: stride)
                                          })
                    try stream.finish()
                } catch {
                    failure = error
                }
                if failure == nil { precondition(resize.isComplete, "the JPEG stream ended early without an error") }
            }
            if let failure { throw failure }
            let upright = request.orientation.swapsDimensions ? target.transposed : target
            return DecodedImage(pixels: PixelBuffer(width: upright.width, height: upright.height, channels: stream.channels,
                                                    pixels: pixels),
                                decodedSize: decodedSize, isUpright: true)
        }
    }

    /// Resizes the file's own Y, Cb and Cr planes straight into the encoder's planes for the planar
    /// output's subsampling, upright: each plane from its stored sampling to the one the output
    /// needs, in one pass; encoded alongside when the planar output says so.
    private func decodePlanes(_ stream: JPEGStream, planes: [JPEGPlane], resize request: ResizeRequest,
                              planar: PlanarOutput) throws(PhotoError) -> DecodedImage {
        let upright = request.orientation.swapsDimensions ? request.target.transposed : request.target
        let sizes = YCbCrImage.sampledSizes(upright, subsampling: planar.subsampling)
        var encoded: EncodedImage?
        let image = try YCbCrImage.make(size: upright, subsampling: planar.subsampling) { (outputs) throws(PhotoError) in
            let resize = PlanarResize(sources: planes.map(\.size), uprightTargets: sizes,
                                      filter: request.filter, threads: request.threads,
                                      orientation: request.orientation, outputs: outputs)
            let sink = planar.alongside?()
            if let sink { try resize.report(to: sink, planes: outputs, sizes: sizes, on: request.workers) }
            // Several iMCU rows per strip: one (16 rows) per hand-over wakes the resizers so often that
            // thread switching becomes a visible share of the prepare.
            let reads = max(1, Self.stripRows * 4 / (planes.map(\.rowsPerRead).max() ?? 1))
            let strips = StripBuffers(sizes: planes.map { $0.stride * $0.rowsPerRead * reads })
            do throws(PhotoError) {
                try StripPipeline.run(consumers: resize.jobs.count, on: request.workers,
                                      read: { (slot) throws(PhotoError) in
                                          try strips.fill(slot, from: stream, planes: planes, reads: reads)
                                      },
                                      consume: { consumer, slot, _ in
                                          let done = strips.reads[slot]
                                          for band in resize.jobs[consumer] {
                                              let plane = planes[band.plane]
                                              band.resizer.push(strips[slot, band.plane], count: plane.rowsPerRead * done, stride: plane.stride)
                                          }
                                      })
                try stream.finish()
            } catch {
                sink?.abandon()
                throw error
            }
            precondition(resize.isComplete, "the JPEG stream ended early without an error")
            encoded = try sink?.close()
        }
        return DecodedImage(planes: image, encoded: encoded, decodedSize: PixelSize(width: stream.width, height: stream.height))
    }

    /// The whole image at 1/`scale`, turned by `orientation`: upright rows are decoded straight into
    /// the result, others through a strip that is then placed row by row.
    private func decodeWhole(_ bytes: [UInt8], scale: Int, orientation: ExifOrientation) throws(PhotoError) -> PixelBuffer {
        try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> PixelBuffer in
            try decodeWhole(.memory(data), scale: scale, orientation: orientation)
        }
    }

    private func decodeWhole(_ source: JPEGSource, scale: Int, orientation: ExifOrientation) throws(PhotoError) -> PixelBuffer {
        do {
            let stream = try JPEGStream(source, scaleDenominator: scale)
            let size = PixelSize(width: stream.width, height: stream.height)
            let stride = stream.width * stream.channels
            var failure: PhotoError?
            // Not zeroed first: every row is written, or the decode throws and the buffer is dropped.
            let pixels = [UInt8](unsafeUninitializedCapacity: size.pixelCount * stream.channels) { buffer, count in
                count = buffer.count
                let destination = OrientedDestination(stored: size, orientation: orientation, channels: stream.channels,
                                                      base: buffer.baseAddress!)
                let strip: UnsafeMutablePointer<UInt8>? = orientation == .up ? nil : .allocate(capacity: stride * Self.stripRows)
                defer { strip?.deallocate() }
                var row = 0
                do throws(PhotoError) {
                    while row < size.height {
                        let into = strip ?? destination.contiguousRow(y: row, x: 0)!
                        let read = try stream.read(into: into, stride: stride,
                                                   rows: strip == nil ? size.height - row : min(Self.stripRows, size.height - row))
                        guard read > 0 else { break }
                        if let strip {
                            for i in 0..<read { destination.write(row: strip + i * stride, y: row + i, x: 0, count: size.width) }
                        }
                        row += read
                    }
                    try stream.finish()
                    guard row == size.height else {
                        throw .truncated(.jpeg, detail: "libjpeg-turbo stopped after \(row) of \(size.height) rows")
                    }
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            let upright = orientation.swapsDimensions ? size.transposed : size
            return PixelBuffer(width: upright.width, height: upright.height, channels: stream.channels, pixels: pixels)
        }
    }

    /// The largest of 8, 4, 2 (else 1) whose 1/n-scaled long edge still covers `minimumLongEdge`.
    ///
    /// Only power-of-two factors: libjpeg-turbo has SIMD code for them, while its other M/8
    /// scaled IDCTs decode barely faster than full size and alias more (docs/performance.md).
    static func scaleDenominator(_ size: PixelSize, minimumLongEdge: Int?) -> Int {
        guard let target = minimumLongEdge else { return 1 }
        return [8, 4, 2].first { (size.longEdge + $0 - 1) / $0 >= target } ?? 1
    }
}
