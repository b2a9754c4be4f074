internal import CJPEGEncoder

/// JPEG through our encoder (``JPEGWriter``): 4:2:0 chroma (4:4:4 at quality ≥ 95), baseline or
/// progressive, grey for grey pixels. Pixels are turned into JFIF's YCbCr planes first; planes
/// (the JPEG decoder's resized ones) are encoded as they are. With workers, the file's two parts
/// are encoded and written side by side. An ICC profile goes in as APP2 `ICC_PROFILE` segments
/// after the JFIF header.
struct JPEGEncoder: ImageEncoding {
    /// The threads the two parts are encoded on; `nil`: one after the other on the caller's.
    var workers: Workers?

    init(workers: Workers? = nil) {
        self.workers = workers
    }

    func encode(_ image: PixelBuffer, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        let size = PixelSize(width: image.width, height: image.height)
        guard image.channels != 1 else {
            let jpeg = try image.pixels.withUnsafeBufferPointer { (grey) throws(PhotoError) -> [UInt8] in
                try encode([grey.baseAddress!], sizes: [size], subsampling: nil, options: options)
            }
            return Self.finish(jpeg, iccProfile: iccProfile)
        }
        let subsampling = Self.subsampling(quality: options.quality)
        let planes = try YCbCrImage.make(size: size, subsampling: subsampling) { outputs in
            image.pixels.withUnsafeBufferPointer { pixels in
                withUnsafeTemporaryAllocation(of: Optional<UnsafeMutablePointer<UInt8>>.self, capacity: 3) { pointers in
                    for c in 0..<3 { pointers[c] = outputs[c] }
                    pq_rgb_to_planes(pixels.baseAddress, image.rowBytes, Int32(image.width), Int32(image.height),
                                     Int32(image.channels), subsampling == .half ? 1 : 0, pointers.baseAddress)
                }
            }
        }
        return try encode(planes, options: options, iccProfile: iccProfile)
    }

    /// The chroma subsampling a quality gets: full chroma from 95 up, for a picture near the
    /// source's. Below that, halved chroma takes fewer bytes for the same butteraugli distance at
    /// every quality of the corpus photos (from 90 to 94 as well, where libjpeg's habit, and
    /// libvips', is full chroma): docs/performance.md, "The JPEG encoder".
    static let fullChromaQuality = 95

    static func subsampling(quality: Int) -> ChromaSubsampling { quality >= fullChromaQuality ? .full : .half }

    /// Encodes planes as they are (``YCbCrImage``: the JPEG decoder's resized planes), with no
    /// colour conversion or chroma downsampling; `options.quality` must ask for the planes' subsampling.
    func encode(_ image: YCbCrImage, options: EncodingOptions, iccProfile: [UInt8]?) throws(PhotoError) -> [UInt8] {
        precondition(Self.subsampling(quality: options.quality) == image.subsampling, "the planes are subsampled for another quality")
        let jpeg = try image.planes[0].withUnsafeBufferPointer { (y) throws(PhotoError) -> [UInt8] in
            try image.planes[1].withUnsafeBufferPointer { (cb) throws(PhotoError) -> [UInt8] in
                try image.planes[2].withUnsafeBufferPointer { (cr) throws(PhotoError) -> [UInt8] in
                    try encode([y.baseAddress!, cb.baseAddress!, cr.baseAddress!], sizes: image.sampledSizes,
                               subsampling: image.subsampling, options: options)
                }
            }
        }
        return Self.finish(jpeg, iccProfile: iccProfile)
    }

    /// The parts' rows encoded side by side on the workers (one after the other without), then
    /// written and joined.
    private func encode(_ planes: [UnsafePointer<UInt8>], sizes: [PixelSize], subsampling: ChromaSubsampling?,
                        options: EncodingOptions) throws(PhotoError) -> [UInt8] {
        let writer = try JPEGWriter(size: sizes[0], subsampling: subsampling, options: options)
        let parts = [0..<writer.splitRow, writer.splitRow..<writer.imcuRows].filter { !$0.isEmpty }
        let shared = HandedOver(planes)
        if let workers, parts.count == 2 {
            let (top, bottom) = workers.sideBySide({
                Result { () throws(PhotoError) in try writer.encode(rows: parts[0], planes: planes, sizes: sizes) }
            }, and: {
                HandedOver(Result { () throws(PhotoError) in try writer.encode(rows: parts[1], planes: shared.value, sizes: sizes) })
            })
            try top.get()
            try bottom.value.get()
        } else {
            for rows in parts { try writer.encode(rows: rows, planes: planes, sizes: sizes) }
        }
        return try writer.finish(on: workers)
    }

    /// The file with the ICC profile spliced in.
    private static func finish(_ jpeg: [UInt8], iccProfile: [UInt8]?) -> [UInt8] {
        guard let iccProfile, !iccProfile.isEmpty else { return jpeg }
        return embedding(iccProfile, in: jpeg)
    }

    /// Inserts the profile as APP2 "ICC_PROFILE" segments (at most 65 519 bytes each) after SOI and JFIF APP0.
    static func embedding(_ profile: [UInt8], in jpeg: [UInt8]) -> [UInt8] {
        var insertAt = 2
        if jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        let chunkSize = 65_519
        let chunks = stride(from: 0, to: profile.count, by: chunkSize).map { Array(profile[$0..<min($0 + chunkSize, profile.count)]) }
        guard chunks.count <= 255 else { return jpeg }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + 12 + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)]
            segments += Array("ICC_PROFILE\0".utf8) + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        return Array(jpeg[0..<insertAt]) + segments + Array(jpeg[insertAt...])
    }
}
