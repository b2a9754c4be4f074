/// Finds the highest quality whose output fits a byte budget.
enum ByteBudget {
    struct Fit {
        let quality: Int
        let data: [UInt8]
    }

    /// Binary search over quality in `minQuality ..< options.encoding.quality` (output size grows with
    /// quality); `nil` when even the floor is too big or the format has no quality setting.
    static func fit<Image>(budget: Int, options: PrepareOptions, image: Image,
                           encode: (Image, Int) throws(PhotoError) -> [UInt8]) throws(PhotoError) -> Fit? {
        guard options.encoding.format.hasQuality, !options.encoding.lossless else { return nil }
        var low = min(options.minQuality, options.encoding.quality)
        var high = options.encoding.quality - 1
        var best: Fit?
        while low <= high {
            let quality = (low + high) / 2
            let data = try encode(image, quality)
            if data.count <= budget {
                best = Fit(quality: quality, data: data)
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return best
    }
}
