import Testing
@testable import PhotoPipeline

/// 16-bit PNGs keep their colours: a file without gAMA, sRGB or iCCP is sRGB at every bit depth
/// (as browsers, Pillow and libvips take it), and a gAMA chunk is honoured as browsers do.
@Suite struct SixteenBitPNGTests {
    /// A 16-bit gradient of `channels` (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA); alpha runs 96…255
    /// so every colour is visible enough to measure.
    static func gradient(channels: Int, width: Int = 64, height: Int = 48) -> (samples: [UInt16], eightBit: [UInt8]) {
        var samples: [UInt16] = []
        for y in 0..<height {
            for x in 0..<width {
                let values = [x * 65535 / (width - 1), y * 65535 / (height - 1), (x + y) * 65535 / (width + height - 2)]
                let alpha = 96 * 257 + (x * 159 * 257) / (width - 1)
                switch channels {
                case 1: samples += [UInt16(values[0])]
                case 2: samples += [UInt16(values[0]), UInt16(alpha)]
                case 3: samples += values.map { UInt16($0) }
                default: samples += values.map { UInt16($0) } + [UInt16(alpha)]
                }
            }
        }
        return (samples, samples.map { UInt8((Int($0) + 128) / 257) })
    }

    /// Mean difference per colour sample between the decoded pixels and the file's own values
    /// (grey is compared with each of R, G, B when the decoder widened it).
    static func colourError(_ image: PixelBuffer, expected: [UInt8], channels: Int) -> Double {
        let colours = channels <= 2 ? 1 : 3
        var total = 0.0, count = 0
        for pixel in 0..<(image.width * image.height) {
            for c in 0..<colours {
                let want = Double(expected[pixel * channels + c])
                let got = Double(image.pixels[pixel * image.channels + (image.channels >= 3 && colours == 1 ? 0 : c)])
                total += abs(want - got)
                count += 1
            }
        }
        return total / Double(count)
    }

    @Test(arguments: [1, 2, 3, 4])
    func untaggedSixteenBitKeepsItsOwnValuesThroughPrepare(channels: Int) throws {
        let (samples, eightBit) = Self.gradient(channels: channels)
        let file = PNGBuilder.png16(width: 64, height: 48, channels: channels, samples: samples)
        let options = PrepareOptions(encoding: EncodingOptions(format: .png))
        let prepared = try PhotoPipeline.prepare(file, options: options)
        let image = try PhotoPipeline.decode(prepared.data)
        #expect(image.width == 64 && image.height == 48)
        #expect(image.channels == [1: 1, 2: 4, 3: 3, 4: 4][channels])
        let error = Self.colourError(image, expected: eightBit, channels: channels)
        #expect(error <= 1, "mean error \(error) per 8-bit sample against the file's own values")
        if channels % 2 == 0 {
            let alphaError = (0..<(64 * 48)).map { abs(Int(image.pixels[$0 * 4 + 3]) - Int(eightBit[$0 * channels + channels - 1])) }.max()!
            #expect(alphaError <= 1, "alpha is coverage and scales straight to 8 bits")
        }
    }

    /// An sRGB chunk says the same as no chunk at all; gAMA 1.0 (linear light) is honoured:
    /// mid-grey 0.5 linear is 188 in sRGB, not 128.
    @Test func sRGBChunkAgreesAndLinearGammaIsHonoured() throws {
        let (samples, eightBit) = Self.gradient(channels: 3)
        let untagged = try PhotoPipeline.decode(PNGBuilder.png16(width: 64, height: 48, channels: 3, samples: samples))
        let srgb = try PhotoPipeline.decode(PNGBuilder.png16(width: 64, height: 48, channels: 3, samples: samples,
                                                             extra: [("sRGB", [0])]))
        #expect(PixelMetrics.meanAbsoluteDifference(untagged, srgb) <= 0.5)
        let gray = [UInt16](repeating: 32768, count: 8 * 8 * 3)
        let linear = try PhotoPipeline.decode(PNGBuilder.png16(width: 8, height: 8, channels: 3, samples: gray,
                                                               extra: [("gAMA", PNGBuilder.be32(100_000))]))
        #expect(abs(Int(linear.pixels[0]) - 188) <= 1, "got \(linear.pixels[0])")
        #expect(Self.colourError(untagged, expected: eightBit, channels: 3) <= 1)
    }
}

/// PngSuite's 16-bit files against their 8-bit twins (the same picture as 16-bit RGB with a tRNS
/// colour and as an 8-bit palette, both with gAMA 1.0; the other 16-bit files have no twin of the
/// same picture, and cs3n2c16/cs3n3p08 differ by their significant bits, 5.2 apart in Pillow too).
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct SixteenBitPNGCorpusTests {
    @Test(arguments: [("tbbn2c16", "tbbn3p08"), ("tbgn2c16", "tbgn3p08")])
    func sixteenBitAgreesWithItsEightBitTwin(sixteen: String, eight: String) throws {
        let wide = try PhotoPipeline.decode(try Corpus.bytes("pngsuite/\(sixteen).png"))
        let narrow = try PhotoPipeline.decode(try Corpus.bytes("pngsuite/\(eight).png"))
        #expect(wide.width == narrow.width && wide.height == narrow.height && wide.channels == 4 && narrow.channels == 4)
        // The same coverage but at one pixel (Pillow finds that pixel too: the palette file makes one
        // more colour transparent); colour compared where both show some.
        var total = 0, samples = 0, alphaDiffers = 0
        for y in 0..<wide.height {
            for x in 0..<wide.width {
                let p = wide.rgba(x: x, y: y), q = narrow.rgba(x: x, y: y)
                if p.a != q.a { alphaDiffers += 1 }
                guard p.a > 0, q.a > 0 else { continue }
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
                samples += 3
            }
        }
        #expect(alphaDiffers <= 1, "alpha differs at \(alphaDiffers) pixels")
        let difference = Double(total) / Double(max(samples, 1))
        // Both say gAMA 1.0, so both are linear light made sRGB; the 8-bit file's dark steps are
        // coarse in linear light (1/255 linear is already 13 in sRGB), which costs about 2.4 here.
        #expect(samples > 0 && difference <= 3, "mean difference \(difference) over \(samples) samples")
    }
}
