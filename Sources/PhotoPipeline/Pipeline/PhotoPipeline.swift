/// Turns any file's bytes into an upright, private, upload-ready photo — or a ``PhotoError``.
///
/// One direction, from bytes to file: sniff → header probe → limits (before any pixel buffer
/// exists) → the plan (``PreparePlan``) → decode at reduced scale where the codec can, its rows
/// through the resizers into the output planes or pixels, turned upright on the way (for an
/// upright JPEG, encoded while its planes are written) → the image at the target size → its
/// encoding → byte budget. Metadata kept: the colour of the ICC profile alone
/// (``ICCColourProfile``), nothing else.
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
        try timings.measure(\.probe) { () throws(PhotoError) in try JPEGScanCost.check(.file(file, header: header)) }
        return try prepare(.jpegFile(file, header: header), info: info, options: options, timings: timings)
    }

    /// What is being prepared: a whole file in memory, or a JPEG file streamed (with its header,
    /// as the probe read it).
    enum Input {
        case bytes([UInt8])
        case jpegFile(PhotoFile, header: [UInt8])

        /// A JPEG's segments up to its first scan, as far as they are in the first bytes read.
        var jpegHeader: [UInt8] {
            switch self {
            case .bytes(let bytes): Array(bytes.prefix(JPEGFileHeader.firstRead))
            case .jpegFile(_, let header): header
            }
        }
    }

    /// Everything after the probe, in order: the plan, the decode (resized, and for an upright
    /// JPEG already encoded), the image at the target size, its encoding, and the byte budget.
    private static func prepare(_ input: Input, info source: ImageInfo, options: PrepareOptions,
                                timings: StageTimings) throws(PhotoError) -> PreparedPhoto {
        var timings = timings
        var info = source
        info.limitICCProfile(to: options.maxICCProfileBytes)
        info.fitICCProfile(to: options.encoding.format)
        // The profile carried: none for sRGB, the colour alone compactly, or none with the pixels
        // converted to sRGB from it (then in RGB, not the file's planes).
        let convertFrom = info.settleColourProfile()

        let plan = PreparePlan(info, options: options, convertingFrom: convertFrom, jpegHeader: input.jpegHeader)
        if options.choosesQuality {
            // libjxl and what it loads take some 6 ms to map: beside the decode, not after it.
            plan.resize.workers.start { try? CodecLibrary.jxl.load() }
        }
        let decoded = try timings.measure(\.decode) { () throws(PhotoError) in try decode(input, info: info, plan: plan) }
        var renderer = Renderer(decoded, plan: plan)
        func render(_ size: PixelSize) throws(PhotoError) -> RenderedImage {
            try timings.measure(\.transform) { () throws(PhotoError) in try renderer.render(size) }
        }
        // A JPEG's two parts side by side on the photo's threads, when it has two.
        let workers = options.threads > 1 ? plan.resize.workers : nil
        func encode(_ image: RenderedImage, quality: Int) throws(PhotoError) -> [UInt8] {
            var encoding = options.encoding
            encoding.quality = quality
            return try timings.measure(\.encode) { () throws(PhotoError) in
                try image.encode(options: encoding, iccProfile: info.iccProfile, background: options.background, workers: workers)
            }
        }

        var image = try render(plan.target)
        var quality = options.encoding.quality
        var estimatedDistance: Double?
        if let auto = options.autoQuality, options.choosesQuality {
            let choice = try timings.measure(\.encode) { () throws(PhotoError) in
                try auto.choose(for: image, encoding: options.encoding, background: options.background, workers: workers)
            }
            (quality, estimatedDistance) = (choice.quality, choice.estimatedDistance)
        }
        var data = try encode(image, quality: quality)
        if let budget = options.maxBytes, data.count > budget {
            // The budget's search starts below the quality chosen.
            var budgeted = options
            budgeted.encoding.quality = quality
            let fit = try ByteBudget.meet(budget, options: budgeted, target: plan.target, image: image, data: data,
                                          render: render, encode: encode)
            (image, quality, data) = (fit.image, fit.quality, fit.data)
        }
        return PreparedPhoto(data: data, format: options.encoding.format, size: image.size,
                             quality: quality, estimatedDistance: estimatedDistance, source: info,
                             decodedSize: decoded.decodedSize, timings: timings)
    }

    /// Decodes `input` as `plan` says, each plan by its folder's one entry point, on the plan's
    /// workers; every job they ran has ended when it returns.
    static func decode(_ input: Input, info: ImageInfo, plan: PreparePlan) throws(PhotoError) -> DecodedImage {
        let (resize, planar) = (plan.resize, plan.planar)
        defer { resize.workers.waitForAll() }
        switch (input, plan.decode) {
        case (.jpegFile(let file, let header), .jpeg(let strategy)):
            do throws(PhotoError) {
                return try JPEGDecoder().decodeResized(.file(file, header: header), info: info, resize: resize,
                                                       planar: planar, strategy: strategy)
            } catch {
                try file.checkUnchanged()
                throw error
            }
        case (.jpegFile, _):
            preconditionFailure("a streamed file is a JPEG")
        case (.bytes(let bytes), .jpeg(let strategy)):
            return try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) -> DecodedImage in
                try JPEGDecoder().decodeResized(.memory(data), info: info, resize: resize, planar: planar, strategy: strategy)
            }
        case (.bytes(let bytes), .heif):
            return try HEIFDecoder(type: info.type).decodeResized(bytes, info: info, resize: resize, planar: planar)
        case (.bytes(let bytes), .whole):
            return try ImageDecoders.decoder(for: info.type).decodeResized(bytes, info: info, resize: resize, planar: planar)
        }
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
    /// (the byte count is checked before anything is parsed) and a JPEG's scans within what
    /// decoding one may cost (``JPEGScanCost``).
    static func probe(_ bytes: [UInt8], within limits: PhotoLimits) throws(PhotoError) -> ImageInfo {
        try limits.check(byteCount: bytes.count)
        let info = try HeaderProbe.probe(bytes)
        try limits.check(info)
        if info.type == .jpeg {
            try bytes.withUnsafeBufferPointer { (data) throws(PhotoError) in try JPEGScanCost.check(.memory(data)) }
        }
        return info
    }
}
