import Testing
@testable import PhotoPipeline

/// A colour profile is carried only as its colour: sRGB not at all, a matrix/TRC profile rebuilt
/// from its colour tags (nothing else of it survives), a lookup-table profile by converting the
/// pixels to sRGB.
@Suite struct ICCColourProfileTests {
    static let secret = "GPS 52.2297,21.0122 home of the owner"

    /// A gradient of muted colours (every channel 64–191: inside sRGB's gamut also when read as Display P3).
    static func jpeg(_ profile: [UInt8]?, channels: Int = 3) throws -> [UInt8] {
        var pixels = PixelMetrics.gradient(width: 64, height: 48)
        pixels.pixels = pixels.pixels.map { 64 + $0 / 2 }
        if channels == 1 {
            pixels = PixelBuffer(width: pixels.width, height: pixels.height, channels: 1,
                                 pixels: stride(from: 0, to: pixels.pixels.count, by: 3).map { pixels.pixels[$0] })
        }
        return try PipelineStages.encode(pixels, options: EncodingOptions(quality: 95), iccProfile: profile)
    }

    @Test func aProfileWithTextInAPrivateTagIsCarriedAsItsColourAlone() throws {
        // Display P3 with a private tag carrying text and 1 MiB less a little of padding.
        let padding = [UInt8](repeating: 0x20, count: (1 << 20) - 2000)
        let hostile = ICCProfiles.rgb(extra: [("zzzz", ICCProfiles.text(Self.secret) + padding)])
        #expect(hostile.count < ICCProfileCheck.maximumBytes)
        let file = try Self.jpeg(hostile)
        #expect(try PhotoPipeline.inspect(file).iccProfile == hostile, "the probe reads it whole")
        for format in OutputFormat.allCases {
            let prepared = try PhotoPipeline.prepare(file, options: PrepareOptions(maxDimension: 32, encoding: EncodingOptions(format: format)))
            let carried = try #require(try PhotoPipeline.inspect(prepared.data).iccProfile, "\(format)")
            #expect(carried.count < 700, "\(format): \(carried.count) bytes")
            #expect(!MetadataScanner.contains(prepared.data, "GPS 52.2297"), "\(format)")
            #expect(!MetadataScanner.contains(prepared.data, "ACMEcam1") && !MetadataScanner.contains(prepared.data, "Apple"), "\(format)")
            #expect(prepared.data.count < 8 * 1024, "\(format): \(prepared.data.count) bytes")
            // The colour is the original's: the same colorants and curves.
            for tag in ["rXYZ", "gXYZ", "bXYZ", "rTRC"] {
                #expect(Self.tag(tag, of: carried) == Self.tag(tag, of: hostile), "\(format) \(tag)")
            }
            #expect(ICCColourProfile.examine(carried) == .compact(carried), "compacting is idempotent")
        }
    }

    @Test func sRGBIsNotCarriedAtAll() throws {
        let srgb = ICCProfiles.rgb(ICCProfiles.sRGB, extra: [("zzzz", ICCProfiles.text(Self.secret))])
        #expect(ICCColourProfile.examine(srgb) == .sRGB)
        let prepared = try PhotoPipeline.prepare(try Self.jpeg(srgb))
        #expect(try PhotoPipeline.inspect(prepared.data).iccProfile == nil)
        #expect(prepared.data == (try PhotoPipeline.prepare(try Self.jpeg(nil))).data, "the same bytes as without a profile")
        // A 2.2 gamma is not sRGB's curve: that one is kept (compactly).
        guard case .compact = ICCColourProfile.examine(ICCProfiles.rgb(ICCProfiles.sRGB, curve: [2.2, 1, 0, 0, 0])) else {
            Issue.record("a 2.2 gamma profile was taken for sRGB")
            return
        }
    }

    @Test func aGreyProfileStaysGrey() throws {
        let grey = ICCProfiles.grey()
        let prepared = try PhotoPipeline.prepare(try Self.jpeg(grey, channels: 1))
        let carried = try #require(try PhotoPipeline.inspect(prepared.data).iccProfile)
        #expect(carried[16..<20].elementsEqual("GRAY".utf8) && Self.tag("kTRC", of: carried) == Self.tag("kTRC", of: grey))
    }

    /// A lookup-table profile cannot be reduced to its matrix (a CMM prefers the table): the
    /// pixels are converted to sRGB through it, and no profile is written. Its table here is the
    /// matrix exactly, so the result is what converting through the matrix profile gives.
    @Test func aLookupTableProfileIsConvertedToSRGB() throws {
        let table = ICCProfiles.lookupTable()
        guard case .convert(let reason) = ICCColourProfile.examine(table) else {
            Issue.record("a lookup-table profile was not converted")
            return
        }
        #expect(reason.contains("A2B0"))
        let file = try Self.jpeg(table)
        let prepared = try PhotoPipeline.prepare(file, options: PrepareOptions(encoding: EncodingOptions(format: .png)))
        #expect(try PhotoPipeline.inspect(prepared.data).iccProfile == nil)
        #expect(prepared.source.droppedICCProfile?.message.contains("converted to sRGB") == true, "\(String(describing: prepared.source.droppedICCProfile))")
        let decoded = try PhotoPipeline.decode(file)
        let expected = try ColourConversion.toSRGB(decoded, from: ICCProfiles.rgb(), type: .jpeg)
        let output = try PhotoPipeline.decode(prepared.data)
        let differences = zip(output.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        #expect(mean < 1 && (differences.max() ?? 0) <= 12, "from the matrix conversion (precalculated tables differ in dark corners): mean \(mean), largest \(differences.max() ?? 0)")
        // Display P3 to sRGB is not nothing: the gradient's saturated end moves.
        let unchanged = zip(decoded.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(unchanged > 10)
    }

    @Test func aProfileNoCMMCanReadIsDroppedNotFatal() throws {
        // Passes the header checks (size, 'acsp', RGB) but has no tags at all.
        let empty = ICCProfileTests.profile(count: 3144)
        let prepared = try PhotoPipeline.prepare(try Self.jpeg(empty))
        #expect(try PhotoPipeline.inspect(prepared.data).iccProfile == nil)
        #expect(prepared.source.droppedICCProfile?.reason.contains("cannot be read") == true)
    }

    /// The bytes of tag `signature` of `profile`.
    static func tag(_ signature: String, of profile: [UInt8]) -> ArraySlice<UInt8>? {
        let count = Int(ICCBytes.uint32(profile[...], at: 128))
        for index in 0..<count {
            let entry = 132 + 12 * index
            guard profile[entry..<(entry + 4)].elementsEqual(signature.utf8) else { continue }
            let offset = Int(ICCBytes.uint32(profile[...], at: entry + 4)), size = Int(ICCBytes.uint32(profile[...], at: entry + 8))
            return profile[offset..<(offset + size)]
        }
        return nil
    }
}
