/// The decoded image, upright, at the sizes the encoder asks for: the target as the decode made it
/// (planes, with their JPEG if one was made alongside, or pixels), smaller sizes (for the byte
/// budget) resized from the target-sized pixels.
struct Renderer {
    let decoded: DecodedImage
    let plan: PreparePlan
    /// The decoder's pixels (planes are converted once, when a smaller size needs pixels).
    private var pixels: PixelBuffer?

    init(_ decoded: DecodedImage, plan: PreparePlan) {
        self.decoded = decoded
        self.plan = plan
    }

    /// Upright at `size` (given in stored orientation).
    mutating func render(_ size: PixelSize) throws(PhotoError) -> RenderedImage {
        if size == plan.target {
            switch decoded.content {
            case .planes(let planes): return .planes(planes, encoded: nil)
            case .encoded(let encoded, let planes): return .planes(planes, encoded: encoded)
            case .pixels: break
            }
        }
        let pixels: PixelBuffer
        if let cached = self.pixels { pixels = cached } else { pixels = try decoded.rgb() }
        self.pixels = pixels
        let resize = plan.resize
        if decoded.isUpright {
            let upright = resize.orientation.swapsDimensions ? size.transposed : size
            return .pixels(try inSRGB(pixels.resized(to: upright, filter: resize.filter, threads: resize.threads, on: resize.workers)))
        }
        return .pixels(try inSRGB(pixels.resized(to: size, filter: resize.filter, threads: resize.threads, on: resize.workers)
            .oriented(resize.orientation)))
    }

    /// Resized pixels converted to sRGB when the plan says the profile cannot be carried.
    private func inSRGB(_ pixels: PixelBuffer) throws(PhotoError) -> PixelBuffer {
        guard let profile = plan.convertFrom else { return pixels }
        return try ColourConversion.toSRGB(pixels, from: profile, type: plan.sourceType)
    }
}
