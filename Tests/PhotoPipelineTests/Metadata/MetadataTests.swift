import Testing
@testable import PhotoPipeline

/// Reading EXIF; stripping everything private on output; keeping the colour profile.
@Suite struct MetadataTests {
    static let privateContainers: Set<String> = ["APP1:Exif", "APP1:XMP", "COM", "EXIF", "XMP ", "tEXt", "zTXt", "iTXt", "tIME", "eXIf"]

    @Test func readsGPSAndCaptureDate() throws {
        let info = try PhotoPipeline.inspect(try Fixtures.bytes("jpeg-gps-date.jpg"))
        let gps = try #require(info.gps)
        #expect(abs(gps.latitude - 52.23) < 1e-9 && abs(gps.longitude - 21.01) < 1e-9)
        #expect(info.capturedAt?.iso8601 == "2024-06-15T14:30:00+02:00")
    }

    @Test(arguments: [OutputFormat.jpeg, .webp, .png])
    func everythingPrivateIsStripped(_ format: OutputFormat) throws {
        let source = try Fixtures.bytes("jpeg-gps-date.jpg")
        #expect(MetadataScanner.containers(in: source).contains("COM"))
        let photo = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(format: format)))
        let containers = Set(MetadataScanner.containers(in: photo.data))
        #expect(containers.isDisjoint(with: Self.privateContainers), "\(containers)")
        for secret in ["secret comment", "secret xmp description", "PetSpotTest", "2024:06:15"] {
            #expect(!MetadataScanner.contains(photo.data, secret), "\(secret) leaked")
        }
        let info = try PhotoPipeline.inspect(photo.data)
        #expect(info.gps == nil && info.capturedAt == nil && info.orientationTag == nil)
        #expect(photo.source.gps != nil, "the source's GPS is still reported to the caller")
    }

    /// An sRGB profile says what a photo without one is taken to be: it is left out, nothing else changes.
    @Test(arguments: [OutputFormat.jpeg, .webp, .png])
    func anSRGBProfileIsLeftOut(_ format: OutputFormat) throws {
        let source = try Fixtures.bytes("jpeg-icc-srgb.jpg")
        #expect(try PhotoPipeline.inspect(source).iccProfile != nil)
        let photo = try PhotoPipeline.prepare(source, options: PrepareOptions(encoding: EncodingOptions(format: format)))
        #expect(try PhotoPipeline.inspect(photo.data).iccProfile == nil)
        #expect(photo.source.droppedICCProfile == nil, "nothing to report: the colour is the same")
        #expect(PixelMetrics.meanAbsoluteDifference(try PhotoPipeline.decode(photo.data), try PhotoPipeline.decode(source)) < 4)
    }

    @Test func largeProfilesAreSplitAcrossJPEGSegments() throws {
        var profile = (0..<150_000).map { UInt8($0 % 251) }
        // A well-formed header (size, colour space, signature), or the probe drops it.
        profile.replaceSubrange(0..<4, with: [0x00, 0x02, 0x49, 0xF0])
        profile.replaceSubrange(16..<20, with: Array("RGB ".utf8))
        profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
        let data = try ImageEncoders.encode(PixelMetrics.gradient(width: 32, height: 32), options: EncodingOptions(),
                                            iccProfile: profile, background: .white)
        #expect(MetadataScanner.jpegSegments(data).filter { $0 == "APP2:ICC_PROFILE" }.count == 3)
        #expect(try PhotoPipeline.inspect(data).iccProfile == profile)
    }

    @Test func hostileExifIsReadWithoutCrashing() {
        // An IFD whose next pointers loop and whose entries point past the end.
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        tiff += [0, 3]                                            // 3 entries
        tiff += [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0]        // orientation 6
        tiff += [0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 8]        // GPS IFD → IFD0 itself (a loop)
        tiff += [0x87, 0x69, 0, 4, 0, 0, 0, 1, 0x7F, 0xFF, 0xFF, 0xFF] // Exif IFD far past the end
        tiff += [0, 0, 0, 8]                                      // next IFD → itself
        let exif = ExifReader.read(tiff: tiff)
        #expect(exif?.orientationTag == 6)
        #expect(exif?.gps == nil)
        for cut in 0..<tiff.count { _ = ExifReader.read(tiff: Array(tiff.prefix(cut))) }
    }
}

@Suite(.enabled(if: Corpus.isAvailable, "set PETSPOT_CORPUS to the shared corpus"))
struct CorpusMetadataTests {
    static let files = ["camera-exif/Canon_40D.jpg", "camera-exif/Nikon_D70.jpg", "camera-exif/gps-DSCN0010.jpg",
                        "camera-exif/samsung-SM-G930F-phone.jpg", "webp/pillow/flower2.webp", "webp/pillow/flower.webp",
                        "pngsuite/ctzn0g04.png", "pngsuite/ctjn0g04.png", "pngsuite/cm7n0g04.png", "pngsuite/exif2c08.png",
                        "icc/chromium-red-at-12-oclock-with-color-profile.png", "icc/chromium-red-at-12-oclock-with-color-profile.jpg",
                        "icc/pillow-icc_profile.png"]

    /// What is left of the source's colour profile: nothing for sRGB, else its colour alone.
    @Test(arguments: files)
    func reEncodingKeepsOnlyTheColourOfTheProfile(_ file: String) throws {
        let source = try Corpus.bytes(file)
        let sourceInfo = try PhotoPipeline.inspect(source)
        for format in OutputFormat.allCases {
            let photo = try PhotoPipeline.prepare(source, options: PrepareOptions(maxDimension: 512, encoding: EncodingOptions(format: format)))
            let containers = Set(MetadataScanner.containers(in: photo.data))
            #expect(containers.isDisjoint(with: MetadataTests.privateContainers), "\(format): \(containers)")
            let info = try PhotoPipeline.inspect(photo.data)
            var expected = sourceInfo
            expected.fitICCProfile(to: format)
            _ = expected.settleColourProfile()
            #expect(info.iccProfile == expected.iccProfile, "\(format): profile \(info.iccProfile?.count ?? 0) vs \(expected.iccProfile?.count ?? 0)")
            #expect((info.iccProfile?.count ?? 0) <= ICCColourProfile.maximumCompactBytes)
            #expect(info.gps == nil && info.orientationTag == nil)
        }
    }
}
