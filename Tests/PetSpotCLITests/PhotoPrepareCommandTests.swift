import ArgumentParser
import Foundation
import PetSpotCLI
import PhotoCLI
import PhotoPipeline
import Testing

/// `petspot photo prepare`, run as the built binary (stdout, stderr, exit status, the files it
/// leaves behind) and once in-process through the argument parser.
@Suite struct PhotoPrepareCommandTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    // MARK: - Helpers

    /// The decoded upright pixels and the header of a file the command wrote.
    private func readOutput(_ path: String) throws -> (info: ImageInfo, pixels: PixelBuffer, bytes: [UInt8]) {
        let bytes = try PhotoFixtures.bytes(path)
        return (try PhotoPipeline.inspect(bytes), try PhotoPipeline.decode(bytes), bytes)
    }

    private func expectColor(_ pixels: PixelBuffer, x: Int, y: Int, is expected: (r: Int, g: Int, b: Int),
                             tolerance: Int = 40, sourceLocation: SourceLocation = #_sourceLocation) {
        let p = pixels.rgba(x: x, y: y)
        let distance = max(abs(Int(p.r) - expected.r), abs(Int(p.g) - expected.g), abs(Int(p.b) - expected.b))
        #expect(distance <= tolerance, "pixel (\(x), \(y)) is \(p), expected \(expected)", sourceLocation: sourceLocation)
    }

    /// Red, green, blue and white corners of `sample-photo.jpg` once upright (its 100 px corner squares).
    private func expectSamplePhotoCorners(_ pixels: PixelBuffer, sourceLocation: SourceLocation = #_sourceLocation) {
        let (x0, y0) = (pixels.width * 3 / 100, pixels.height * 3 / 100)
        let (x1, y1) = (pixels.width - 1 - x0, pixels.height - 1 - y0)
        expectColor(pixels, x: x0, y: y0, is: (255, 0, 0), sourceLocation: sourceLocation)
        expectColor(pixels, x: x1, y: y0, is: (0, 255, 0), sourceLocation: sourceLocation)
        expectColor(pixels, x: x0, y: y1, is: (0, 0, 255), sourceLocation: sourceLocation)
        expectColor(pixels, x: x1, y: y1, is: (255, 255, 255), sourceLocation: sourceLocation)
    }

    // MARK: - One photo

    @Test func writesAnUprightJPEGWithoutOrientationGPSOrCaptureDate() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("out.jpg").path

            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out])

            #expect(result.exitCode == 0, "\(result)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            #expect(result.stdout.contains("\(samplePhoto) → \(out) (1200×1600"), "\(result.stdout)")
            #expect(result.stdout.contains("Prepared 1 of 1 photo "), "\(result.stdout)")
            let output = try readOutput(out)
            #expect(output.info.type == .jpeg)
            #expect(output.info.uprightSize == PixelSize(width: 1200, height: 1600))
            #expect(output.info.storedSize == PixelSize(width: 1200, height: 1600), "rotated pixels, not a tag")
            #expect(output.info.orientationTag == nil)
            #expect(output.info.gps == nil)
            #expect(output.info.capturedAt == nil)
            #expect(!output.bytes.contains(subsequence: Array("Exif\0\0".utf8)), "an EXIF block is left")
            #expect(!output.bytes.contains(subsequence: Array("PetSpotTest".utf8)), "the camera make is left")
            expectSamplePhotoCorners(output.pixels)
            #expect(try PhotoFixtures.contents(of: folder) == ["out.jpg"])
        }
    }

    /// libheif (and the five codec libraries it brings) is loaded only when a HEIC or AVIF is read:
    /// glibc's loader lists every library it opens under LD_DEBUG=files.
    @Test func libheifIsLoadedOnlyForHEIF() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let jpeg = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", folder.appendingPathComponent("a.jpg").path],
                                                   environment: ["LD_DEBUG": "files"])
            let heic = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("sample-photo.heic"),
                                                    "-o", folder.appendingPathComponent("b.jpg").path],
                                                   environment: ["LD_DEBUG": "files"])
            #expect(jpeg.exitCode == 0 && heic.exitCode == 0, "\(jpeg)\n\(heic)")
            #expect(jpeg.stderr.contains("file=libjpeg.so"), "LD_DEBUG lists the libraries loaded")
            #expect(!jpeg.stderr.contains("libheif") && !jpeg.stderr.contains("libde265"))
            #expect(heic.stderr.contains("file=libheif.so.1") && heic.stderr.contains("libde265"))
        }
    }

    /// Private metadata goes; an sRGB profile goes too (a photo without one is sRGB), silently.
    @Test func dropsXMPCommentsAndAnSRGBProfile() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let private1 = folder.appendingPathComponent("gps.jpg").path
            let icc = folder.appendingPathComponent("icc.jpg").path

            let first = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("jpeg-gps-date.jpg"), "-o", private1])
            let second = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("jpeg-icc-srgb.jpg"), "-o", icc])

            #expect(first.exitCode == 0, "\(first)")
            #expect(second.exitCode == 0, "\(second)")
            let stripped = try readOutput(private1)
            for secret in ["secret comment", "secret xmp description", "http://ns.adobe.com/xap/1.0/", "PetSpotTest"] {
                #expect(!stripped.bytes.contains(subsequence: Array(secret.utf8)), "output still holds \"\(secret)\"")
            }
            #expect(stripped.info.gps == nil && stripped.info.capturedAt == nil)
            let sourceProfile = try PhotoPipeline.inspect(PhotoFixtures.bytes(PhotoFixtures.testImage("jpeg-icc-srgb.jpg"))).iccProfile
            #expect(sourceProfile?.count == 588)
            #expect(try readOutput(icc).info.iccProfile == nil)
            #expect(!second.stdout.contains("ICC profile dropped") && !second.stderr.contains("ICC profile dropped"))
        }
    }

    /// A PNG whose few KB of iCCP inflate to an 8 MB profile: `inspect` and `prepare` say it is
    /// dropped, and the output is as small as without it.
    @Test func anOversizedProfileIsDroppedAndTheReportSaysSo() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            var profile = [UInt8](repeating: 0, count: 8 << 20)
            profile.replaceSubrange(0..<4, with: [0x00, 0x80, 0x00, 0x00])
            profile.replaceSubrange(16..<20, with: Array("RGB ".utf8))
            profile.replaceSubrange(36..<40, with: Array("acsp".utf8))
            let pixels = PixelBuffer(width: 64, height: 48, channels: 3, pixels: (0..<(64 * 48 * 3)).map { UInt8($0 % 251) })
            let source = folder.appendingPathComponent("bomb-profile.png").path
            try Data(try PipelineStages.encode(pixels, options: EncodingOptions(format: .png), iccProfile: profile))
                .write(to: URL(fileURLWithPath: source))

            let inspected = try await CLIRunner.petspot(["photo", "inspect", source])
            #expect(inspected.exitCode == 0, "\(inspected)")
            #expect(inspected.stdout.contains("ICC profile: dropped by prepare: it inflates to more than 1.0 MiB, the limit for a colour profile"),
                    "\(inspected.stdout)")
            let out = folder.appendingPathComponent("out.jpg").path
            let prepared = try await CLIRunner.petspot(["photo", "prepare", source, "-o", out])
            #expect(prepared.exitCode == 0, "\(prepared)")
            #expect(prepared.stdout.contains("note: ICC profile dropped: it inflates to more than 1.0 MiB"), "\(prepared.stdout)")
            let output = try readOutput(out)
            #expect(output.info.iccProfile == nil && output.bytes.count < 64 * 1024, "\(output.bytes.count) bytes")
            let json = try await CLIRunner.petspot(["photo", "prepare", source, "-o", out, "--force", "--json"])
            #expect(json.stdout.contains("\"icc_profile_dropped\" : \"ICC profile dropped: it inflates"), "\(json.stdout)")
            // A lower limit drops even a real 588-byte sRGB profile; above 1 MiB is refused as a usage error.
            let lowered = try await CLIRunner.petspot(["photo", "prepare", PhotoFixtures.testImage("jpeg-icc-srgb.jpg"), "-o", out,
                                                       "--force", "--max-icc-bytes", "512"])
            #expect(lowered.exitCode == 0 && lowered.stdout.contains("it is 588 B, over the 512 B limit"), "\(lowered)")
            #expect(try readOutput(out).info.iccProfile == nil)
            let tooHigh = try await CLIRunner.petspot(["photo", "prepare", source, "-o", out, "--force", "--max-icc-bytes", "2MiB"])
            #expect(tooHigh.exitCode == 64 && tooHigh.stderr.contains("--max-icc-bytes may only lower the 1 MiB limit"), "\(tooHigh)")
        }
    }

    @Test(arguments: 1...8)
    func everyExifOrientationComesOutUpright(orientation: Int) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("marker.png").path

            let result = try await CLIRunner.petspot([
                "photo", "prepare", PhotoFixtures.testImage("exif-orientation-\(orientation).jpg"), "-o", out,
            ])

            #expect(result.exitCode == 0, "\(result)")
            let output = try readOutput(out)
            #expect(output.info.orientationTag == nil)
            try #require(output.pixels.width == 96 && output.pixels.height == 64, "\(output.pixels.width)×\(output.pixels.height)")
            expectColor(output.pixels, x: 24, y: 16, is: (255, 0, 0))
            expectColor(output.pixels, x: 72, y: 16, is: (0, 255, 0))
            expectColor(output.pixels, x: 24, y: 48, is: (0, 0, 255))
            expectColor(output.pixels, x: 72, y: 48, is: (255, 255, 255))
        }
    }

    @Test func maxDimensionLimitsTheLongEdgeAndKeepsTheAspectRatio() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("small.jpg").path

            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out, "--max-dimension", "400"])

            #expect(result.exitCode == 0, "\(result)")
            let output = try readOutput(out)
            #expect(output.pixels.height == 400, "the long edge of an upright 1200×1600 photo is its height")
            #expect(abs(output.pixels.width - 400 * 1200 / 1600) <= 1, "width \(output.pixels.width)")
            expectSamplePhotoCorners(output.pixels)
        }
    }

    @Test func neverUpscales() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("same.jpg").path

            let result = try await CLIRunner.petspot([
                "photo", "prepare", PhotoFixtures.testImage("jpeg-icc-srgb.jpg"), "-o", out, "--max-dimension", "5000",
            ])

            #expect(result.exitCode == 0, "\(result)")
            let output = try readOutput(out)
            #expect(output.pixels.width == 128 && output.pixels.height == 96, "\(output.pixels.width)×\(output.pixels.height)")
        }
    }

    @Test(arguments: [
        (["-o", "out.png"], "out.png", MediaType.png),
        (["-o", "out.webp"], "out.webp", .webp),
        (["-o", "out.jpeg"], "out.jpeg", .jpeg),
        (["--format", "webp", "-o", "out"], "out", .webp),
        (["--format", "png", "--out-dir", "."], "sample-photo.png", .png),
        (["--format", "webp", "--out-dir", "."], "sample-photo.webp", .webp),
        (["--out-dir", "."], "sample-photo.jpg", .jpeg),
    ])
    func formatComesFromTheOptionOrTheOutputName(arguments: [String], outputName: String, type: MediaType) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(
                ["photo", "prepare", samplePhoto, "--max-dimension", "200"] + arguments, in: folder)

            #expect(result.exitCode == 0, "\(result)")
            #expect(try PhotoFixtures.contents(of: folder) == [outputName])
            let output = try readOutput(folder.appendingPathComponent(outputName).path)
            #expect(output.info.type == type)
            #expect(output.pixels.width == 150 && output.pixels.height == 200)
        }
    }

    @Test func lowerQualityGivesASmallerFile() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            var sizes: [Int: Int] = [:]
            for quality in [30, 95] {
                let out = folder.appendingPathComponent("q\(quality).jpg").path
                let result = try await CLIRunner.petspot([
                    "photo", "prepare", samplePhoto, "-o", out, "--max-dimension", "800", "--quality", "\(quality)",
                ])
                #expect(result.exitCode == 0, "\(result)")
                sizes[quality] = try PhotoFixtures.bytes(out).count
            }
            let low = try #require(sizes[30]), high = try #require(sizes[95])
            #expect(low < high, "q30: \(low) bytes, q95: \(high) bytes")
        }
    }

    /// `--quality auto` picks each photo's quality and says which, with the distance it aimed at;
    /// a closer target (`auto:0.6`) gives a higher quality and a larger file than a looser one.
    @Test func autoQualityChoosesPerPhotoAndFollowsItsTarget() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            var chosen: [String: (quality: Int, distance: Double, bytes: Int)] = [:]
            for argument in ["auto", "auto:0.6", "auto:2.5"] {
                let out = folder.appendingPathComponent("\(argument).jpg").path
                let result = try await CLIRunner.petspot([
                    "photo", "prepare", samplePhoto, "-o", out, "--max-dimension", "800", "--quality", argument, "--json",
                ])
                #expect(result.exitCode == 0, "\(result)")
                let record = try #require(try result.jsonArray().first)
                let quality = try #require(record["quality"] as? Int, "\(record)")
                let distance = try #require(record["estimated_distance"] as? Double, "\(record)")
                #expect(try PhotoFixtures.bytes(out).count == record["bytes"] as? Int)
                chosen[argument] = (quality, distance, record["bytes"] as? Int ?? 0)
            }
            let close = try #require(chosen["auto:0.6"]), middle = try #require(chosen["auto"]), loose = try #require(chosen["auto:2.5"])
            #expect(close.quality > middle.quality && middle.quality > loose.quality, "\(chosen)")
            #expect(close.bytes > middle.bytes && middle.bytes > loose.bytes, "\(chosen)")
            #expect(middle.distance <= 1.1 && close.distance <= 0.6 && loose.distance <= 2.5, "\(chosen)")

            let lines = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", folder.appendingPathComponent("l.jpg").path,
                                                     "--max-dimension", "800", "--quality", "auto"])
            #expect(lines.exitCode == 0, "\(lines)")
            #expect(lines.stdout.contains(", q\(middle.quality) for butteraugli ≈ "), "\(lines.stdout)")
        }
    }

    /// `--effort max` writes fewer bytes for the same picture: a progressive JPEG of the same
    /// coefficients, so the same pixels; a WebP from libwebp's slowest method, within
    /// a level of the normal one's pixels on average.
    @Test func maxEffortWritesFewerBytesForTheSamePicture() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let photo = PhotoFixtures.testImage("jpeg-baseline.jpg")
            for format in ["jpg", "webp"] {
                var outputs: [String: [UInt8]] = [:]
                for effort in ["normal", "max"] {
                    let out = folder.appendingPathComponent("\(effort).\(format)").path
                    let result = try await CLIRunner.petspot(["photo", "prepare", photo, "-o", out, "--effort", effort])
                    #expect(result.exitCode == 0, "\(result)")
                    outputs[effort] = try PhotoFixtures.bytes(out)
                }
                let normal = try #require(outputs["normal"]), max = try #require(outputs["max"])
                #expect(max.count < normal.count, "\(format): \(max.count) bytes at max, \(normal.count) at normal")
                let a = try PhotoPipeline.decode(normal), b = try PhotoPipeline.decode(max)
                #expect(a.width == b.width && a.height == b.height)
                let difference = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
                if format == "jpg" {
                    #expect(try PhotoPipeline.inspect(max).encodingSummary.hasPrefix("progressive"))
                    #expect(try PhotoPipeline.inspect(normal).encodingSummary.hasPrefix("baseline"))
                    #expect(difference == 0, "a progressive file of the same coefficients decodes to the same pixels")
                } else {
                    #expect(Double(difference) / Double(a.pixels.count) < 1.0, "WebP at method 6: \(difference)")
                }
            }
        }
    }

    @Test func byteBudgetIsMet() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("budget.jpg").path

            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out, "--max-bytes", "20KB"])

            #expect(result.exitCode == 0, "\(result)")
            let output = try readOutput(out)
            #expect(output.bytes.count <= 20_000, "\(output.bytes.count) bytes")
            #expect(output.pixels.height > output.pixels.width, "still portrait")
        }
    }

    @Test func unreachableBudgetExits65AndLeavesNoFile() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("tiny.jpg").path

            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "-o", out, "--max-bytes", "100"])

            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stderr.contains("error: \(samplePhoto): "), "\(result.stderr)")
            #expect(result.stderr.contains("cannot be made to fit"), "\(result.stderr)")
            #expect(result.stderr.contains("--max-bytes"), "\(result.stderr)")
            #expect(try PhotoFixtures.contents(of: folder).isEmpty)
        }
    }

    @Test func missingInputExits66AndNamesThePath() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let missing = folder.appendingPathComponent("gone.jpg").path

            let result = try await CLIRunner.petspot(["photo", "prepare", missing, "--out-dir", folder.appendingPathComponent("out").path])

            #expect(result.exitCode == 66, "\(result)")
            #expect(result.stderr.contains("Cannot read \(missing)"), "\(result.stderr)")
        }
    }

    @Test(arguments: [
        ["-o", "/proc/nonexistent/x.jpg"],
        ["--out-dir", "/proc/nonexistent/photos"],
    ])
    func unwritableOutputExits73(arguments: [String]) async throws {
        let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "--max-dimension", "100"] + arguments)

        #expect(result.exitCode == 73, "\(result)")
        #expect(result.stderr.contains("/proc/nonexistent/"), "\(result.stderr)")
    }

    // MARK: - Usage

    @Test(arguments: [
        (["IN", "IN2", "-o", "x.jpg"], "-o/--output takes one input"),
        (["IN", "-o", "x.jpg", "--out-dir", "d"], "exactly one of -o/--output FILE or --out-dir DIR"),
        (["IN"], "exactly one of -o/--output FILE or --out-dir DIR"),
        (["IN", "-o", "x.gif"], "Cannot tell the format"),
        (["IN", "-o", "x.jpg", "--quality", "0"], "--quality"),
        (["IN", "-o", "x.jpg", "--quality", "best"], "or auto for each photo's lowest quality"),
        (["IN", "-o", "x.jpg", "--quality", "auto:9"], "from 0.3 to 5"),
        (["IN", "-o", "x.jpg", "--quality", "auto:"], "auto:DISTANCE"),
        (["IN", "-o", "x.jpg", "--effort", "most"], "most"),
        (["IN", "-o", "x.jpg", "--jobs", "0"], "--jobs"),
        (["IN", "-o", "x.jpg", "--max-bytes", "lots"], "not a byte size"),
        (["IN", "-o", "x.jpg", "--format", "gif"], "gif"),
        (["IN", "-o", "x.webp", "--format", "png", "--lossless"], "--lossless"),
    ])
    func badArgumentsAreAUsageError(arguments: [String], messageFragment: String) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let inputs = ["IN": samplePhoto, "IN2": PhotoFixtures.testImage("jpeg-baseline.jpg")]

            let result = try await CLIRunner.petspot(["photo", "prepare"] + arguments.map { inputs[$0] ?? $0 }, in: folder)

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains(messageFragment), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(try PhotoFixtures.contents(of: folder).isEmpty, "nothing is written on a usage error")
        }
    }

    @Test(arguments: [
        ["-o", "x.jpg", "--lossless"],
        ["-o", "x.webp", "--progressive"],
        ["-o", "x.png", "--effort", "max"],
    ])
    func formatSpecificFlagsAreRefusedForAFormatTakenFromTheOutputName(arguments: [String]) async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, "--max-dimension", "100"] + arguments, in: folder)

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains("applies to"), "\(result.stderr)")
        }
    }

    @Test func twoInputsWithTheSameStemIntoOneFolderIsAUsageError() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let jpeg = folder.appendingPathComponent("a.jpg")
            let png = folder.appendingPathComponent("a.png")
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("jpeg-baseline.jpg"), toPath: jpeg.path)
            try FileManager.default.copyItem(atPath: PhotoFixtures.testImage("png-palette.png"), toPath: png.path)
            let out = folder.appendingPathComponent("out")

            let result = try await CLIRunner.petspot(["photo", "prepare", jpeg.path, png.path, "--out-dir", out.path])

            #expect(result.exitCode == 64, "\(result)")
            #expect(result.stderr.contains("Two inputs would both be written to \(out.appendingPathComponent("a.jpg").path)"),
                    "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path))
        }
    }

    @Test func helpListsTheExitCodes() async throws {
        let result = try await CLIRunner.petspot(["photo", "prepare", "--help"])

        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (code, meaning) in [("65", "bad input data"), ("66", "cannot open an input file"), ("73", "cannot be created or written"), ("74", "the disk is full")] {
            #expect(lines.contains { $0.hasPrefix(code) && $0.contains(meaning) }, "no line for \(code) in:\n\(result.stdout)")
        }
    }

    // MARK: - Batches

    @Test func batchWithBadFilesPreparesTheGoodOnesAndExits65() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let inputs = ["sample-photo.jpg", "bad-truncated.jpg", "png-rgba-alpha.png", "bad-not-an-image.jpg", "webp-lossy.webp"]
                .map(PhotoFixtures.testImage)

            let result = try await CLIRunner.petspot(["photo", "prepare"] + inputs + ["--out-dir", folder.path, "--max-dimension", "300"])

            #expect(result.exitCode == 65, "\(result)")
            #expect(result.stdout.contains("Prepared 3 of 5 photos (2 failed)"), "\(result.stdout)")
            #expect(result.stderr.contains("error: \(inputs[1]): "), "\(result.stderr)")
            #expect(result.stderr.contains("error: \(inputs[3]): "), "\(result.stderr)")
            #expect(try PhotoFixtures.contents(of: folder) == ["png-rgba-alpha.jpg", "sample-photo.jpg", "webp-lossy.jpg"])
            #expect(try PhotoFixtures.temporaryFiles(in: folder).isEmpty)
            for name in try PhotoFixtures.contents(of: folder) {
                #expect(throws: Never.self, "\(name) decodes") { _ = try readOutput(folder.appendingPathComponent(name).path) }
            }
        }
    }

    @Test func outputsDoNotDependOnTheNumberOfJobs() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let inputs = ["sample-photo.jpg", "jpeg-baseline.jpg", "png-rgba-alpha.png", "webp-lossy.webp",
                          "exif-orientation-6.jpg", "png-stripes-1px.png"].map(PhotoFixtures.testImage)
            let one = folder.appendingPathComponent("jobs1"), four = folder.appendingPathComponent("jobs4")

            let first = try await CLIRunner.petspot(["photo", "prepare"] + inputs + ["--out-dir", one.path, "--jobs", "1", "--max-dimension", "500"])
            let second = try await CLIRunner.petspot(["photo", "prepare"] + inputs + ["--out-dir", four.path, "--jobs", "4", "--max-dimension", "500"])

            #expect(first.exitCode == 0, "\(first)")
            #expect(second.exitCode == 0, "\(second)")
            let names = try PhotoFixtures.contents(of: one)
            #expect(names.count == inputs.count)
            #expect(try PhotoFixtures.contents(of: four) == names)
            for name in names {
                let a = try PhotoFixtures.bytes(one.appendingPathComponent(name).path)
                let b = try PhotoFixtures.bytes(four.appendingPathComponent(name).path)
                #expect(a == b, "\(name) differs between --jobs 1 and --jobs 4")
            }
        }
    }

    @Test func jsonReportIsAnArrayWithOneResultPerFile() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let bad = PhotoFixtures.testImage("bad-not-an-image.jpg")

            let result = try await CLIRunner.petspot(["photo", "prepare", samplePhoto, bad, "--out-dir", folder.path, "--json"])

            #expect(result.exitCode == 65, "\(result)")
            let records = try result.jsonArray()
            try #require(records.count == 2, "\(result.stdout)")
            let ok = records[0], failed = records[1]
            let output = folder.appendingPathComponent("sample-photo.jpg").path
            #expect(ok["input"] as? String == samplePhoto)
            #expect(ok["output"] as? String == output)
            #expect(ok["mime_type"] as? String == "image/jpeg")
            #expect(ok["width"] as? Int == 1200)
            #expect(ok["height"] as? Int == 1600)
            #expect(ok["quality"] as? Int == 85)
            #expect(ok["input_bytes"] as? Int == (try PhotoFixtures.bytes(samplePhoto)).count)
            #expect(ok["bytes"] as? Int == (try PhotoFixtures.bytes(output)).count)
            #expect(ok["error"] == nil)
            #expect(failed["input"] as? String == bad)
            #expect(failed["output"] == nil)
            let error = try #require(failed["error"] as? [String: Any])
            #expect(error["code"] as? String == "unsupported:text/plain")
            #expect((error["message"] as? String)?.contains("plain text file") == true)
        }
    }

    // MARK: - Terminal

    private static let scriptPath = "/usr/bin/script"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: scriptPath),
                   "util-linux `script` is needed to run petspot under a pseudo-terminal"))
    func progressBarOnlyOnATerminal() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let inputs = ["sample-photo.jpg", "jpeg-baseline.jpg", "webp-lossy.webp"].map(PhotoFixtures.testImage)
            let binary = try CLIRunner.petspotURL().path
            let arguments = ["photo", "prepare"] + inputs + ["--max-dimension", "200", "--out-dir"]
            let command = ([binary] + arguments + [folder.appendingPathComponent("tty").path])
                .map(CLIRunner.shellQuoted).joined(separator: " ")

            let onTerminal = try await CLIRunner.run(URL(fileURLWithPath: Self.scriptPath), ["-qec", command, "/dev/null"])
            let plain = try await CLIRunner.petspot(arguments + [folder.appendingPathComponent("plain").path])

            #expect(onTerminal.exitCode == 0, "\(onTerminal)")
            #expect(onTerminal.stdout.contains("█") || onTerminal.stdout.contains("░"), "no progress bar on a terminal:\n\(onTerminal.stdout)")
            #expect(onTerminal.stdout.contains("Prepared 3 of 3 photos"))
            #expect(plain.exitCode == 0, "\(plain)")
            #expect(!plain.stderr.contains("\u{1B}["), "escape codes without a terminal: \(plain.stderr.debugDescription)")
            #expect(!plain.stderr.contains("█") && !plain.stderr.contains("░"))
            #expect(plain.stdout.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == 3, "\(plain.stdout)")
        }
    }

    // MARK: - Interruption

    @Test(.enabled(if: PhotoFixtures.hasCorpus, "PETSPOT_CORPUS is not set"), .timeLimit(.minutes(2)))
    func interruptedBatchLeavesOnlyCompleteOutputs() async throws {
        let slowPhoto = PhotoFixtures.corpusFile("photos/sony-rx100m4_5640x3172_q100.jpg")
        try #require(FileManager.default.fileExists(atPath: slowPhoto), "corpus file missing: \(slowPhoto)")
        try await PhotoFixtures.withScratchFolder { folder in
            // Enough photos that the batch is still running when a starved test task gets to send
            // the interrupt (40 once finished first on a loaded CI machine).
            let inputs = (0..<200).map { folder.appendingPathComponent(String(format: "photo-%03d.jpg", $0)).path }
            for input in inputs { try FileManager.default.createSymbolicLink(atPath: input, withDestinationPath: slowPhoto) }
            let out = folder.appendingPathComponent("out")

            let running = try RunningProcess(try CLIRunner.petspotURL(),
                                             ["photo", "prepare"] + inputs + ["--jobs", "2", "--out-dir", out.path])
            // Interrupt mid-batch: after half a second and once the first output is complete, so
            // finished, in-flight and not-yet-started photos all exist at that moment.
            try await Task.sleep(for: .milliseconds(500))
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline, running.isRunning,
                  ((try? PhotoFixtures.contents(of: out)) ?? []).allSatisfy(PhotoFixtures.isTemporaryWrite) {
                try await Task.sleep(for: .milliseconds(20))
            }
            running.send(SIGINT)
            let result = await running.result(timeout: .seconds(60))

            #expect(!result.timedOut, "\(result)")
            #expect(result.exitCode == 130 || (result.terminatedBySignal && result.status == SIGINT), "\(result)")
            let written = FileManager.default.fileExists(atPath: out.path) ? try PhotoFixtures.contents(of: out) : []
            #expect(!written.contains(where: PhotoFixtures.isTemporaryWrite), "left behind: \(written)")
            #expect(!written.isEmpty && written.count < inputs.count, "the interrupt did not land mid-batch: \(written.count) outputs")
            for name in written {
                #expect(throws: Never.self, "\(name) is complete") {
                    _ = try PhotoPipeline.decode(PhotoFixtures.bytes(out.appendingPathComponent(name).path))
                }
            }
        }
    }

    // MARK: - In-process

    @Test func preparesInProcessThroughTheArgumentParser() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let out = folder.appendingPathComponent("in-process.webp").path
            let parsed = try PetSpotCommand.parseAsRoot(["photo", "prepare", samplePhoto, "-o", out, "--max-dimension", "320"])
            var command = try #require(parsed as? any AsyncParsableCommand, "\(type(of: parsed)) is not async")

            try await command.run()

            let output = try readOutput(out)
            #expect(output.info.type == .webp)
            #expect(output.pixels.width == 240 && output.pixels.height == 320)
            #expect(output.info.gps == nil && output.info.capturedAt == nil)
            expectSamplePhotoCorners(output.pixels)
        }
    }

    @Test func inProcessFailuresMapToTheDocumentedExitCodes() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let usage = #expect(throws: (any Error).self) {
                try PetSpotCommand.parseAsRoot(["photo", "prepare", samplePhoto, samplePhoto, "-o", "x.jpg"])
            }
            #expect(usage.map { PetSpotCommand.exitCode(for: $0).rawValue } == PhotoCLI.ExitStatus.usage.rawValue)

            let parsed = try PetSpotCommand.parseAsRoot([
                "photo", "prepare", PhotoFixtures.testImage("bad-not-an-image.jpg"), "--out-dir", folder.path, "--json",
            ])
            var command = try #require(parsed as? any AsyncParsableCommand)
            let dataError = await #expect(throws: ExitCode.self) { try await command.run() }
            #expect(dataError?.rawValue == PhotoCLI.ExitStatus.dataError.rawValue)
            #expect(try PhotoFixtures.contents(of: folder).isEmpty)
        }
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return indices.dropLast(needle.count - 1).contains { self[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
