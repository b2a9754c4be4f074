/// Turns any file's bytes into an upright, private, upload-ready photo — or a ``PhotoError``.
///
/// One direction, from bytes to file: sniff → header probe → limits (before any pixel buffer
/// exists) → the plan (``DecodePlan``) → decode at reduced scale where the codec can, its rows
/// through the resizers into the output planes or pixels, turned upright on the way → the encoder
/// (for an upright JPEG, already at work on the planes' finished rows) → byte budget. Metadata
/// kept: the ICC profile, nothing else.
public enum PhotoPipeline {
    /// Prepares one photo from its bytes.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - options: size, format, quality, budget and limits.
    /// - Returns: the encoded photo and what it is.
    /// - Throws: ``PhotoError`` for every refusal, with a message a person can act on.
    public static func prepare(_ bytes: [UInt8], options: PrepareOptions = PrepareOptions()) throws(PhotoError) -> PreparedPhoto {
        var timings = StageTimings()
        try options.validate()
        let info = try timings.measure(\.probe) { () throws(PhotoError) in try probe(bytes, within: options.limits) }
        return try prepare(.bytes(bytes), info: info, options: options, timings: timings)
    }

    /// Prepares the photo in the file at `path`. A JPEG is never held in memory whole: its header
    /// is read up to the first scan and libjpeg streams the rest from the file through a 64 KiB
    /// window (on the 18 MP q100 photo, 16 MB less at the peak); other types are read whole.
    /// - Throws: as ``prepare(_:options:)``, and ``PhotoError/unreadableFile(path:reason:)`` for a
    ///   file that cannot be read, is not a regular file, or shrinks while it is read.
    public static func prepare(contentsOf path: String, options: PrepareOptions = PrepareOptions()) throws(PhotoError) -> PreparedPhoto {
        try options.validate()
        return try prepare(try PhotoFile(path, limit: options.limits.maxInputBytes), options: options)
    }

    /// Prepares the photo in an open file (see ``prepare(contentsOf:options:)``).
    static func prepare(_ file: PhotoFile, options: PrepareOptions) throws(PhotoError) -> PreparedPhoto {
        var timings = StageTimings()
        guard let header = try timings.measure(\.probe, { () throws(PhotoError) in try JPEGFileHeader.read(file) }) else {
            return try prepare(file.readAll(), options: options)
        }
        var info = try timings.measure(\.probe) { () throws(PhotoError) in try JPEGHeaderReader.read(header) }
        info.byteCount = file.size
        try options.limits.check(info)
        return try prepare(.jpegFile(file, header: header), info: info, options: options, timings: timings)
    }

    /// What is being prepared: a whole file in memory, or a JPEG file streamed (with its header,
    /// as the probe read it).
    enum Input {
        case bytes([UInt8])
        case jpegFile(PhotoFile, header: [UInt8])
    }

    /// Everything after the probe: the plan and the chain (decoder → resizers → encoder), then the
    /// byte budget.
    private static func prepare(_ input: Input, info source: ImageInfo, options: PrepareOptions,
                                timings: StageTimings) throws(PhotoError) -> PreparedPhoto {
        var timings = timings
        var info = source
        info.limitICCProfile(to: options.maxICCProfileBytes)
        info.fitICCProfile(to: options.encoding.format)

        let target = info.storedSize.fitting(longEdge: options.maxDimension)
        let minimumLongEdge = options.decodeHeadroom.map { Int((Double(target.longEdge) * $0).rounded(.up)) }
        // To JPEG and lossy WebP, a JPEG (or a planar HEIC) is resized in its own YCbCr planes.
        let planes = options.jpegInYCbCr ? RenderedImage.planes(for: options.encoding) : nil
        // The threads of this photo: every stage's side-by-side work runs on them, and all have
        // ended when the decode returns.
        let workers = Workers()
        // The chain's last stage, when the encoder can take the planes' rows as they are finished.
        let alongside = planesEncoder(orientation: info.orientation, target: target, options: options)
        let request = DecodeRequest(minimumLongEdge: minimumLongEdge, target: target, filter: options.filter,
                                    threads: options.threads,
                                    flattenOnto: options.encoding.format.supportsAlpha ? nil : options.background,
                                    orientation: info.orientation, planes: planes, sink: alongside,
                                    twoDecoderMinimumPixels: options.twoDecoderMinimumPixels, workers: workers)
        let decoded = try timings.measure(\.decode) { () throws(PhotoError) in
            try decode(input, info: info, request: request)
        }
        /// The decoder's pixels (planes are converted once, when a smaller size needs pixels).
        var decodedPixels: PixelBuffer?
        /// Upright pixels at `size` (stored orientation); smaller sizes (for the byte budget) are
        /// resized from the target-sized image. JPEG comes out of its decoder upright already.
        func render(_ size: PixelSize) throws(PhotoError) -> RenderedImage {
            if size == target, case .planes(let planes) = decoded.content { return .planes(planes) }
            return try timings.measure(\.transform) { () throws(PhotoError) -> RenderedImage in
                let pixels: PixelBuffer
                if let decodedPixels { pixels = decodedPixels } else { pixels = try decoded.rgb() }
                decodedPixels = pixels
                if decoded.isUpright {
                    let upright = info.orientation.swapsDimensions ? size.transposed : size
                    return .pixels(pixels.resized(to: upright, filter: options.filter, threads: options.threads, on: workers))
                }
                return .pixels(pixels.resized(to: size, filter: options.filter, threads: options.threads, on: workers)
                    .oriented(info.orientation))
            }
        }
        func encode(_ image: RenderedImage, quality: Int) throws(PhotoError) -> [UInt8] {
            var encoding = options.encoding
            encoding.quality = quality
            return try timings.measure(\.encode) { () throws(PhotoError) in
                if case .planes = image, quality == options.encoding.quality, let encoded = alongside?.bytes {
                    // Encoded while it was being resized.
                    guard let iccProfile = info.iccProfile, !iccProfile.isEmpty else { return encoded }
                    return JPEGEncoder.embedding(iccProfile, in: encoded)
                }
                return try image.encode(options: encoding, iccProfile: info.iccProfile, background: options.background)
            }
        }

        var image = try render(target)
        var quality = options.encoding.quality
        var data = try encode(image, quality: quality)
        if let budget = options.maxBytes, data.count > budget {
            // Over budget: the best quality that fits, else shrink step by step at the floor quality.
            if let fit = try ByteBudget.fit(budget: budget, options: options, image: image, encode: encode) {
                (quality, data) = (fit.quality, fit.data)
            } else {
                if options.encoding.format.hasQuality && !options.encoding.lossless {
                    quality = min(options.minQuality, options.encoding.quality)
                }
                var size = target
                while data.count > budget {
                    let next = PixelSize(width: max(1, size.width * 3 / 4), height: max(1, size.height * 3 / 4))
                    guard next.longEdge >= min(options.minDimension, target.longEdge), next != size else {
                        throw .budgetUnreachable(maxBytes: budget, smallestBytes: data.count, format: options.encoding.format)
                    }
                    size = next
                    image = try render(size)
                    data = try encode(image, quality: quality)
                }
            }
        }
        return PreparedPhoto(data: data, format: options.encoding.format, size: image.size,
                             quality: quality, source: info, decodedSize: decoded.decodedSize,
                             timings: timings)
    }

    /// Decodes `input` as its plan says, each plan by its folder's one entry point, on the request's
    /// workers; every job they ran has ended when it returns.
    static func decode(_ input: Input, info: ImageInfo, request: DecodeRequest) throws(PhotoError) -> DecodedImage {
        defer { request.workers.waitForAll() }
        switch input {
        case .jpegFile(let file, let header):
            guard case .jpeg(let strategy) = DecodePlan.choose(info, jpegHeader: header, request: request) else {
                preconditionFailure("a streamed file is a JPEG")
            }
            do throws(PhotoError) {
                return try JPEGDecoder().decodeResized(.file(file, header: header), info: info, request: request, strategy: strategy)
            } catch {
                try file.checkUnchanged()
                throw error
            }
        case .bytes(let bytes):
            switch DecodePlan.choose(info, jpegHeader: Array(bytes.prefix(JPEGFileHeader.firstRead)), request: request) {
            case .jpeg(let strategy):
                return try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> DecodedImage in
                    try JPEGDecoder().decodeResized(.memory(data), info: info, request: request, strategy: strategy)
                }
            case .heif:
                return try HEIFDecoder(type: info.type).decodeResized(bytes, info: info, request: request)
            case .whole:
                return try ImageDecoders.decoder(for: info.type).decodeResized(bytes, info: info, request: request)
            }
        }
    }

    /// The chain's last stage when the planes a decoder writes can become the JPEG while they are
    /// being written: upright planes (turned ones complete their upright rows only at the end), of a
    /// JPEG output, on two or more threads (on one, encoding would only take turns with decoding).
    static func planesEncoder(orientation: ExifOrientation, target: PixelSize, options: PrepareOptions) -> JPEGPlanesEncoder? {
        guard options.jpegInYCbCr, options.encoding.format == .jpeg, orientation == .up, options.threads > 1,
              let subsampling = RenderedImage.planes(for: options.encoding) else { return nil }
        return JPEGPlanesEncoder(options: options.encoding, size: target, subsampling: subsampling)
    }

    /// Reads the header only: type, size, orientation, GPS, capture date, ICC, alpha, animation.
    public static func inspect(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        try HeaderProbe.probe(bytes)
    }

    /// Decodes to upright pixels at full size (for tests and tools that need the pixels themselves).
    public static func decode(_ bytes: [UInt8], limits: PhotoLimits = .default) throws(PhotoError) -> PixelBuffer {
        let info = try probe(bytes, within: limits)
        return try ImageDecoders.decoder(for: info.type).decode(bytes, info: info, minimumLongEdge: nil).oriented(info.orientation)
    }

    /// The header, once the file's size and the declared pixels are known to be within `limits`
    /// (the byte count is checked before anything is parsed).
    static func probe(_ bytes: [UInt8], within limits: PhotoLimits) throws(PhotoError) -> ImageInfo {
        try limits.check(byteCount: bytes.count)
        let info = try HeaderProbe.probe(bytes)
        try limits.check(info)
        return info
    }
}
