/// Turns any file's bytes into an upright, private, upload-ready photo — or a ``PhotoError``.
///
/// sniff → header probe → limits (before any pixel buffer exists) → decode at reduced scale
/// where the codec can → resize (Lanczos) → orient → flatten alpha if needed → encode with
/// nothing but the ICC profile → byte budget.
public enum PhotoPipeline {
    /// Prepares one photo from its bytes.
    /// - Parameters:
    ///   - bytes: the whole file.
    ///   - options: size, format, quality, budget and limits.
    /// - Returns: the encoded photo and what it is.
    /// - Throws: ``PhotoError`` for every refusal, with a message a person can act on.
    public static func prepare(_ bytes: [UInt8], options: PrepareOptions = PrepareOptions()) throws(PhotoError) -> PreparedPhoto {
        try options.validate()
        try options.limits.check(byteCount: bytes.count)
        let info = try HeaderProbe.probe(bytes)
        try options.limits.check(info)

        let target = info.storedSize.fitting(longEdge: options.maxDimension)
        let minimumLongEdge = options.decodeHeadroom.map { Int((Double(target.longEdge) * $0).rounded(.up)) }
        let decoded = try ImageDecoders.decoder(for: info.type).decode(bytes, info: info, minimumLongEdge: minimumLongEdge)
        let render = { (size: PixelSize) -> PixelBuffer in
            decoded.resized(to: size, filter: options.filter, threads: options.threads).oriented(info.orientation)
        }
        var pixels = render(target)
        var encoding = options.encoding
        var data = try encode(pixels, encoding, info, options)
        guard let budget = options.maxBytes, data.count > budget else {
            return PreparedPhoto(data: data, format: encoding.format, size: PixelSize(width: pixels.width, height: pixels.height),
                                 quality: encoding.quality, source: info)
        }
        // Over budget: the best quality that fits, else shrink step by step at the floor quality.
        let fit = try ByteBudget.fit(budget: budget, options: options, pixels: pixels) { (pixels, quality) throws(PhotoError) in
            var attempt = options.encoding
            attempt.quality = quality
            return try encode(pixels, attempt, info, options)
        }
        if let fit {
            encoding.quality = fit.quality
            data = fit.data
        } else {
            var size = target
            let quality = options.encoding.format.hasQuality ? min(options.minQuality, options.encoding.quality) : options.encoding.quality
            encoding.quality = quality
            while data.count > budget {
                let next = PixelSize(width: max(1, size.width * 3 / 4), height: max(1, size.height * 3 / 4))
                guard next.longEdge >= min(options.minDimension, target.longEdge), next != size else {
                    throw .budgetUnreachable(maxBytes: budget, smallestBytes: data.count)
                }
                size = next
                pixels = render(size)
                data = try encode(pixels, encoding, info, options)
            }
        }
        return PreparedPhoto(data: data, format: encoding.format, size: PixelSize(width: pixels.width, height: pixels.height),
                             quality: encoding.quality, source: info)
    }

    /// Reads the header only: type, size, orientation, GPS, capture date, ICC, alpha, animation.
    public static func inspect(_ bytes: [UInt8]) throws(PhotoError) -> ImageInfo {
        try HeaderProbe.probe(bytes)
    }

    /// Decodes to upright pixels at full size (for tests and tools that need the pixels themselves).
    public static func decode(_ bytes: [UInt8], limits: PhotoLimits = .default) throws(PhotoError) -> PixelBuffer {
        try limits.check(byteCount: bytes.count)
        let info = try HeaderProbe.probe(bytes)
        try limits.check(info)
        return try ImageDecoders.decoder(for: info.type).decode(bytes, info: info, minimumLongEdge: nil).oriented(info.orientation)
    }

    private static func encode(_ pixels: PixelBuffer, _ encoding: EncodingOptions, _ info: ImageInfo,
                               _ options: PrepareOptions) throws(PhotoError) -> [UInt8] {
        try ImageEncoders.encode(pixels, options: encoding, iccProfile: info.iccProfile, background: options.background)
    }
}
