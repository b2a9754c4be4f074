internal import CCodecs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libjxl's butteraugli distance between two pictures of one size, through its C API (Debian's
/// `libjxl0.7`, opened when first needed like the codecs): how far apart a person would judge them,
/// with 1.0 about where a difference starts to show up close.
///
/// The figure is libjxl's "3-norm": the mean of the 3-, 6- and 12-norms of the distance map, which
/// jpegli is tuned on and `../shared/tools/rd-bench.py` scores. The norms are taken here from the
/// map (``Sums``), so parts of a picture scored apart, side by side, add up to one figure. It
/// costs about half a microsecond a pixel on one core, some twenty times a whole prepare for a
/// picture: ``AutoQuality`` scores a sample of tiles, never the whole picture.
///
/// Pictures are handed over as linear-light floats (``LinearPicture``). Given 8-bit sRGB, libjxl
/// builds a Little CMS transform for each picture of each call, which costs more than scoring a
/// 64-pixel tile; linear sRGB is what it converts to, so the distance is the same.
package enum Butteraugli {
    /// The distance of `distorted` from `reference`: 8-bit RGB or gray pixels (alpha flattened
    /// first), both of one size.
    /// - Returns: `nil` when libjxl cannot score the pair (a picture under 8 pixels a side, no memory).
    /// - Throws: ``PhotoError/codecUnavailable(_:)`` without libjxl.
    package static func distance(_ reference: PixelBuffer, _ distorted: PixelBuffer) throws(PhotoError) -> Double? {
        try sums(LinearPicture(reference), LinearPicture(distorted))?.distance
    }

    /// The sums of the distance map of `distorted` from `reference`, both of one size.
    /// - Parameter counted: the part of the map summed (the whole by default): the pixels around
    ///   it are scored only as the surroundings its distances depend on.
    /// - Returns: `nil` when libjxl cannot score the pair (a picture under 8 pixels a side, no memory).
    /// - Throws: ``PhotoError/codecUnavailable(_:)`` without libjxl.
    static func sums(_ reference: LinearPicture, _ distorted: LinearPicture, counting counted: PixelRect? = nil) throws(PhotoError) -> Sums? {
        precondition(reference.width == distorted.width && reference.height == distorted.height,
                     "butteraugli compares pictures of one size")
        try CodecLibrary.jxl.load()
        guard let api = lazy_JxlButteraugliApiCreate(nil) else { return nil }
        defer { lazy_JxlButteraugliApiDestroy(api) }
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_FLOAT, endianness: JXL_NATIVE_ENDIAN, align: 0)
        let result = reference.values.withUnsafeBytes { a in
            distorted.values.withUnsafeBytes { b in
                lazy_JxlButteraugliCompute(api, UInt32(reference.width), UInt32(reference.height),
                                           &format, a.baseAddress, a.count, &format, b.baseAddress, b.count)
            }
        }
        guard let result else { return nil }
        defer { lazy_JxlButteraugliResultDestroy(result) }
        var map: UnsafePointer<Float>?
        var stride: UInt32 = 0
        lazy_JxlButteraugliResultGetDistmap(result, &map, &stride)
        guard let map else { return nil }
        let area = counted ?? PixelRect(x: 0, y: 0, width: reference.width, height: reference.height)
        precondition(area.x >= 0 && area.y >= 0 && area.x + area.width <= reference.width && area.y + area.height <= reference.height,
                     "the part counted lies inside the pictures")
        var sums = Sums()
        for row in area.y..<(area.y + area.height) {
            let line = map + row * Int(stride)
            for column in area.x..<(area.x + area.width) { sums.add(Double(line[column])) }
        }
        return sums
    }

    /// A distance map's pixel count and sums of the 3rd, 6th and 12th powers: what its norms are
    /// made of, so maps of parts add up to the whole's.
    struct Sums: Sendable, Equatable {
        var pixels = 0
        var cubes = 0.0
        var sixthPowers = 0.0
        var twelfthPowers = 0.0

        mutating func add(_ value: Double) {
            let cube = value * value * value, sixth = cube * cube
            pixels += 1
            cubes += cube
            sixthPowers += sixth
            twelfthPowers += sixth * sixth
        }

        static func + (left: Sums, right: Sums) -> Sums {
            Sums(pixels: left.pixels + right.pixels, cubes: left.cubes + right.cubes,
                 sixthPowers: left.sixthPowers + right.sixthPowers, twelfthPowers: left.twelfthPowers + right.twelfthPowers)
        }

        /// libjxl's "3-norm": the mean of the map's 3-, 6- and 12-norms.
        var distance: Double {
            let count = Double(max(1, pixels))
            return (pow(cubes / count, 1.0 / 3) + pow(sixthPowers / count, 1.0 / 6) + pow(twelfthPowers / count, 1.0 / 12)) / 3
        }
    }
}

/// A picture as butteraugli takes it without converting: linear-light sRGB, three floats a pixel
/// from 0 to 1.
package struct LinearPicture: Sendable {
    package let width: Int
    package let height: Int
    let values: [Float]

    /// `image`'s 8-bit sRGB or gray pixels (alpha flattened first), decoded to linear light.
    package init(_ image: PixelBuffer) {
        precondition(image.channels == 1 || image.channels == 3, "flatten alpha before scoring")
        width = image.width
        height = image.height
        let channels = image.channels
        values = [Float](unsafeUninitializedCapacity: image.width * image.height * 3) { out, count in
            Self.linear.withUnsafeBufferPointer { table in
                image.pixels.withUnsafeBufferPointer { pixels in
                    if channels == 3 {
                        for index in 0..<pixels.count { out[index] = table[Int(pixels[index])] }
                    } else {
                        for index in 0..<pixels.count {
                            let value = table[Int(pixels[index])]
                            out[3 * index] = value
                            out[3 * index + 1] = value
                            out[3 * index + 2] = value
                        }
                    }
                }
            }
            count = image.width * image.height * 3
        }
    }

    private init(width: Int, height: Int, values: [Float]) {
        self.width = width
        self.height = height
        self.values = values
    }

    /// The part of the picture inside `rect`.
    func cropped(to rect: PixelRect) -> LinearPicture {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= width && rect.y + rect.height <= height,
                     "a crop inside the picture")
        var part: [Float] = []
        part.reserveCapacity(rect.width * rect.height * 3)
        values.withUnsafeBufferPointer { values in
            for row in rect.y..<(rect.y + rect.height) {
                let start = (row * width + rect.x) * 3
                part.append(contentsOf: values[start..<(start + rect.width * 3)])
            }
        }
        return LinearPicture(width: rect.width, height: rect.height, values: part)
    }

    /// The sRGB transfer function's inverse (IEC 61966-2-1) for each 8-bit code.
    private static let linear: [Float] = (0..<256).map { code in
        let encoded = Double(code) / 255
        return Float(encoded <= 0.04045 ? encoded / 12.92 : pow((encoded + 0.055) / 1.055, 2.4))
    }
}
