import Testing
@testable import PhotoPipeline

/// Round trips through each encoder and its decoder; alpha handling per format.
@Suite struct EncodingTests {
    static let gradient = PixelMetrics.gradient(width: 160, height: 120)
    static let translucent = PixelMetrics.gradient(width: 160, height: 120, alpha: true)

    @Test(arguments: [
        (EncodingOptions(format: .jpeg, quality: 92), MediaType.jpeg, 3.0),
        (EncodingOptions(format: .jpeg, quality: 85, progressive: true), .jpeg, 4.0),
        (EncodingOptions(format: .webp, quality: 90), .webp, 4.0),
        (EncodingOptions(format: .webp, lossless: true), .webp, 0.0),
        (EncodingOptions(format: .png), .png, 0.0),
    ])
    func roundTripKeepsSizeAndPixels(_ options: EncodingOptions, _ type: MediaType, _ tolerance: Double) throws {
        let data = try ImageEncoders.encode(Self.gradient, options: options, iccProfile: nil, background: .white)
        #expect(MediaSniffer.sniff(data) == type)
        let back = try PhotoPipeline.decode(data)
        #expect(back.width == 160 && back.height == 120)
        #expect(PixelMetrics.meanAbsoluteDifference(back, Self.gradient) <= tolerance)
    }

    @Test func progressiveFlagWritesAProgressiveJPEG() throws {
        let data = try ImageEncoders.encode(Self.gradient, options: EncodingOptions(format: .jpeg, progressive: true),
                                            iccProfile: nil, background: .white)
        #expect(try PhotoPipeline.inspect(data).encodingSummary.contains("progressive"))
        let baseline = try ImageEncoders.encode(Self.gradient, options: EncodingOptions(format: .jpeg), iccProfile: nil, background: .white)
        #expect(try PhotoPipeline.inspect(baseline).encodingSummary.contains("baseline"))
    }

    @Test(arguments: [OutputFormat.png, .webp])
    func alphaSurvivesFormatsThatHaveIt(_ format: OutputFormat) throws {
        let data = try ImageEncoders.encode(Self.translucent, options: EncodingOptions(format: format, lossless: format == .webp),
                                            iccProfile: nil, background: .white)
        let back = try PhotoPipeline.decode(data)
        #expect(back.channels == 4)
        #expect(back.rgba(x: 159, y: 60).a == 0)
        #expect(back.rgba(x: 0, y: 60).a == 255)
    }

    @Test(arguments: [(RGBColor.white, 255), (RGBColor.black, 0)])
    func jpegFlattensAlphaOntoTheBackground(_ background: RGBColor, _ expected: Int) throws {
        let data = try ImageEncoders.encode(Self.translucent, options: EncodingOptions(format: .jpeg, quality: 95),
                                            iccProfile: nil, background: background)
        let back = try PhotoPipeline.decode(data)
        #expect(back.channels == 3)
        let p = back.rgba(x: 159, y: 60)   // fully transparent column
        #expect(abs(Int(p.r) - expected) <= 4 && abs(Int(p.g) - expected) <= 4 && abs(Int(p.b) - expected) <= 4)
    }

    @Test func opaqueAlphaIsDroppedSoFilesStaySmall() throws {
        var opaque = Self.translucent
        for i in stride(from: 3, to: opaque.pixels.count, by: 4) { opaque.pixels[i] = 255 }
        let data = try ImageEncoders.encode(opaque, options: EncodingOptions(format: .png), iccProfile: nil, background: .white)
        #expect(try PhotoPipeline.inspect(data).hasAlpha == false)
    }

    @Test func grayscaleStaysGrayInJPEG() throws {
        let gray = PixelBuffer(width: 64, height: 64, channels: 1, pixels: (0..<4096).map { UInt8($0 % 64 * 4) })
        let data = try ImageEncoders.encode(gray, options: EncodingOptions(format: .jpeg), iccProfile: nil, background: .white)
        #expect(try PhotoPipeline.inspect(data).encodingSummary.contains("grayscale"))
        #expect(try PhotoPipeline.decode(data).channels == 1)
    }
}
