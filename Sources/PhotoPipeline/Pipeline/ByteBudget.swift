/// Brings a photo that is over its byte budget within it: the highest quality that fits, else the
/// floor quality and smaller sizes, step by step.
enum ByteBudget {
    /// What fits: the image encoded, and at which quality.
    struct Fit<Image> {
        let image: Image
        let quality: Int
        let data: [UInt8]
    }

    /// The best quality that fits at the target size (``fit(budget:options:image:encode:)``), else
    /// the floor quality at sizes shrunk by a quarter at a time, down to `options.minDimension`.
    /// - Parameters:
    ///   - image: the target-sized image, whose encoding at `options.encoding.quality` is over.
    ///   - render: the image at a smaller size (stored orientation).
    ///   - encode: an image at a quality.
    /// - Throws: ``PhotoError/budgetUnreachable(maxBytes:smallestBytes:format:)`` when even the
    ///   smallest size at the floor quality is over.
    static func meet<Image>(_ budget: Int, options: PrepareOptions, target: PixelSize, image: Image, data: [UInt8],
                            render: (PixelSize) throws(PhotoError) -> Image,
                            encode: (Image, Int) throws(PhotoError) -> [UInt8]) throws(PhotoError) -> Fit<Image> {
        if let fit = try fit(budget: budget, options: options, image: image, encode: encode) {
            return Fit(image: image, quality: fit.quality, data: fit.data)
        }
        var quality = options.encoding.quality
        if options.encoding.format.hasQuality && !options.encoding.lossless {
            quality = min(options.minQuality, options.encoding.quality)
        }
        var (size, image, data) = (target, image, data)
        while data.count > budget {
            let next = PixelSize(width: max(1, size.width * 3 / 4), height: max(1, size.height * 3 / 4))
            guard next.longEdge >= min(options.minDimension, target.longEdge), next != size else {
                throw .budgetUnreachable(maxBytes: budget, smallestBytes: data.count, format: options.encoding.format)
            }
            size = next
            image = try render(size)
            data = try encode(image, quality)
        }
        return Fit(image: image, quality: quality, data: data)
    }

    /// Binary search over quality in `minQuality ..< options.encoding.quality` (output size grows with
    /// quality); `nil` when even the floor is too big or the format has no quality setting.
    static func fit<Image>(budget: Int, options: PrepareOptions, image: Image,
                           encode: (Image, Int) throws(PhotoError) -> [UInt8]) throws(PhotoError) -> (quality: Int, data: [UInt8])? {
        guard options.encoding.format.hasQuality, !options.encoding.lossless else { return nil }
        var low = min(options.minQuality, options.encoding.quality)
        var high = options.encoding.quality - 1
        var best: (quality: Int, data: [UInt8])?
        while low <= high {
            let quality = (low + high) / 2
            let data = try encode(image, quality)
            if data.count <= budget {
                best = (quality, data)
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return best
    }
}
