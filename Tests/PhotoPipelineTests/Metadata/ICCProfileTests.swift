import Testing
@testable import PhotoPipeline

/// Embedded ICC profiles are carried only when they are bounded and well formed, and say so when
/// they are not.
@Suite struct ICCProfileTests {
    /// A colour gradient with `profile` embedded as `format` writes it (the encoders embed whatever
    /// they are given; only the probe judges).
    static func source(_ format: OutputFormat, profile: [UInt8]?) throws -> [UInt8] {
        let pixels = PixelMetrics.gradient(width: 64, height: 48)
        return try PipelineStages.encode(pixels, options: EncodingOptions(format: format, quality: 90, lossless: format == .webp),
                                         iccProfile: profile)
    }

    /// A profile-shaped block: a 128-byte header (size field, colour space, `acsp`), then zeros.
    static func profile(count: Int, declared: Int? = nil, space: String = "RGB ", signature: String = "acsp") -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let size = declared ?? count
        bytes.replaceSubrange(0..<4, with: [24, 16, 8, 0].map { UInt8(size >> $0 & 0xFF) })
        bytes.replaceSubrange(12..<16, with: Array("mntr".utf8))
        bytes.replaceSubrange(16..<20, with: Array(space.utf8))
        bytes.replaceSubrange(20..<24, with: Array("XYZ ".utf8))
        bytes.replaceSubrange(36..<40, with: Array(signature.utf8))
        return bytes
    }

    static let bad: [(name: String, profile: [UInt8], reason: String)] = [
        ("8 MB with a good header", profile(count: 8 << 20), "1.0 MiB"),
        ("size field that lies", profile(count: 3144, declared: 3000), "its header says it is 3000 bytes, but it holds 3144"),
        ("CMYK on a colour photo", profile(count: 3144, space: "CMYK"), "its colour space is CMYK, but the photo is written in RGB"),
        ("GRAY on a colour photo", profile(count: 3144, space: "GRAY"), "its colour space is GRAY, but the photo is written in RGB"),
        ("no acsp signature", profile(count: 3144, signature: "abcd"), "lacks the 'acsp' signature"),
    ]

    @Test(arguments: [OutputFormat.jpeg, .png, .webp], [OutputFormat.jpeg, .png, .webp])
    func badProfilesAreDroppedAndTheOutputIsAsIfThereWasNone(sourceFormat: OutputFormat, output: OutputFormat) throws {
        let options = PrepareOptions(encoding: EncodingOptions(format: output))
        let plain = try PhotoPipeline.prepare(try Self.source(sourceFormat, profile: nil), options: options)
        for bad in Self.bad {
            let file = try Self.source(sourceFormat, profile: bad.profile)
            let inspected = try PhotoPipeline.inspect(file)
            #expect(inspected.iccProfile == nil, "\(bad.name) in \(sourceFormat)")
            let reason = try #require(inspected.droppedICCProfile?.reason, "\(bad.name) in \(sourceFormat) is not reported")
            #expect(reason.contains(bad.reason), "\(bad.name) in \(sourceFormat): \(reason)")
            let prepared = try PhotoPipeline.prepare(file, options: options)
            #expect(prepared.source.droppedICCProfile?.message.hasPrefix("ICC profile dropped: ") == true)
            #expect(try PhotoPipeline.inspect(prepared.data).iccProfile == nil, "\(bad.name): \(sourceFormat) → \(output)")
            #expect(prepared.byteCount == plain.byteCount,
                    "\(bad.name): \(sourceFormat) → \(output) is \(prepared.byteCount) bytes, without a profile \(plain.byteCount)")
        }
    }

    /// The 8 MB profile's iCCP chunk is a few KB of zlib; it is inflated no further than 1 MiB.
    @Test func aPNGProfileIsNotInflatedPastTheLimit() throws {
        let file = try Self.source(.png, profile: Self.profile(count: 8 << 20))
        #expect(file.count < 64 * 1024, "\(file.count) bytes")
        let dropped = try #require(try PhotoPipeline.inspect(file).droppedICCProfile)
        #expect(dropped.reason == "it inflates to more than 1.0 MiB, the limit for a colour profile")
    }

    @Test func aLowerLimitDropsAProfileThatTheDefaultKeeps() throws {
        let profile = ICCProfiles.rgb(extra: [("zzzz", [UInt8](repeating: 0, count: 2600))])
        let file = try Self.source(.jpeg, profile: profile)
        let kept = try PhotoPipeline.prepare(file)
        let carried = try #require(try PhotoPipeline.inspect(kept.data).iccProfile)
        #expect(ICCColourProfileTests.tag("rXYZ", of: carried) == ICCColourProfileTests.tag("rXYZ", of: profile))
        let lowered = try PhotoPipeline.prepare(file, options: PrepareOptions(maxICCProfileBytes: 2048))
        #expect(try PhotoPipeline.inspect(lowered.data).iccProfile == nil)
        #expect(lowered.source.droppedICCProfile?.reason == "it is \(ByteFormat.string(profile.count)), over the 2.0 KiB limit for a colour profile")
        #expect(throws: PhotoError.self) { try PhotoPipeline.prepare(file, options: PrepareOptions(maxICCProfileBytes: 2 << 20)) }
    }

    /// A grey photo keeps a GRAY profile in JPEG and PNG; WebP has no grey, so there it is dropped.
    @Test func aGrayProfileFitsAGreyPhotoOnly() throws {
        let grey = PixelBuffer(width: 32, height: 32, channels: 1, pixels: (0..<1024).map { UInt8($0 % 256) })
        let profile = ICCProfiles.grey()
        let file = try PipelineStages.encode(grey, options: EncodingOptions(format: .png), iccProfile: profile)
        #expect(try PhotoPipeline.inspect(file).iccProfile == profile)
        for format in [OutputFormat.jpeg, .png] {
            let prepared = try PhotoPipeline.prepare(file, options: PrepareOptions(encoding: EncodingOptions(format: format)))
            let carried = try #require(try PhotoPipeline.inspect(prepared.data).iccProfile, "\(format)")
            #expect(ICCColourProfileTests.tag("kTRC", of: carried) == ICCColourProfileTests.tag("kTRC", of: profile), "\(format)")
        }
        let webp = try PhotoPipeline.prepare(file, options: PrepareOptions(encoding: EncodingOptions(format: .webp)))
        #expect(try PhotoPipeline.inspect(webp.data).iccProfile == nil)
        #expect(webp.source.droppedICCProfile?.reason == "its colour space is GRAY, but WebP stores the photo in RGB")
        let rgbOnGrey = try PipelineStages.encode(grey, options: EncodingOptions(format: .png), iccProfile: Self.profile(count: 600))
        #expect(try PhotoPipeline.inspect(rgbOnGrey).droppedICCProfile?.reason
                == "its colour space is RGB, but the photo is grey")
    }
}

/// Real profiles from the corpus: sRGB is not carried (a photo without a profile is sRGB), Display
/// P3 is carried as its colour tags alone, from every source format into every output.
@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct RealICCProfileTests {
    /// sRGB IEC61966-2.1 (3144 bytes, from a Canon camera JPEG) and Display P3 (548 bytes, from an iPhone HEIC).
    static func realProfiles() throws -> [(String, [UInt8])] {
        let srgb = try #require(try PhotoPipeline.inspect(try Corpus.bytes("camera-exif/Canon_40D.jpg")).iccProfile)
        let p3 = try #require(try PhotoPipeline.inspect(try Corpus.bytes("heif/pillowheif-arrow-iphone8plus.heic")).iccProfile)
        return [("sRGB", srgb), ("Display P3", p3)]
    }

    @Test func sRGBIsLeftOutAndDisplayP3KeepsItsColour() throws {
        let profiles = try Self.realProfiles()
        #expect(profiles.map(\.1.count) == [3144, 548])
        for (name, profile) in profiles {
            for sourceFormat in [OutputFormat.jpeg, .png, .webp] {
                let file = try ICCProfileTests.source(sourceFormat, profile: profile)
                for output in [OutputFormat.jpeg, .png, .webp] {
                    let prepared = try PhotoPipeline.prepare(file, options: PrepareOptions(encoding: EncodingOptions(format: output)))
                    #expect(prepared.source.droppedICCProfile == nil)
                    let carried = try PhotoPipeline.inspect(prepared.data).iccProfile
                    if name == "sRGB" {
                        #expect(carried == nil, "\(name): \(sourceFormat) → \(output)")
                        continue
                    }
                    let compact = try #require(carried, "\(name): \(sourceFormat) → \(output)")
                    #expect(compact.count < 1024, "\(compact.count) bytes")
                    for tag in ["wtpt", "rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC", "chad"] {
                        #expect(ICCColourProfileTests.tag(tag, of: compact) == ICCColourProfileTests.tag(tag, of: profile).map { $0.prefix(ICCColourProfileTests.tag(tag, of: compact)?.count ?? 0) },
                                "\(name) \(tag): \(sourceFormat) → \(output)")
                    }
                }
            }
        }
    }
}
