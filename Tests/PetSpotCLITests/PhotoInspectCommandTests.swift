import Foundation
import Testing

/// `petspot photo inspect`, run as the built binary: stdout, stderr and the exit status.
@Suite struct PhotoInspectCommandTests {
    private let samplePhoto = PhotoFixtures.testImage("sample-photo.jpg")

    /// The value after "label:" in the human output ("  stored:      1600×1200" → "1600×1200").
    private func field(_ label: String, in output: String) -> String? {
        output.split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(label + ":") }
            .map { $0.dropFirst(label.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    @Test func humanOutputListsTypeSizesOrientationGPSAndCaptureDate() async throws {
        let result = try await CLIRunner.petspot(["photo", "inspect", samplePhoto])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.hasPrefix(samplePhoto + "\n"))
        #expect(field("type", in: result.stdout)?.hasPrefix("JPEG image (image/jpeg)") == true, "\(result.stdout)")
        #expect(field("stored", in: result.stdout) == "1600×1200")
        #expect(field("upright", in: result.stdout) == "1200×1600 (orientation 6: rotate 90° clockwise)")
        #expect(field("GPS", in: result.stdout) == "52.230000, 21.010000")
        #expect(field("captured", in: result.stdout) == "2024-06-15T14:30:00+02:00")
        #expect(field("ICC profile", in: result.stdout) == "none")
        #expect(field("alpha", in: result.stdout) == "no")
        #expect(field("note", in: result.stdout) == nil)
    }

    @Test func humanOutputSaysWhenThereIsNoGPSDateOrOrientation() async throws {
        let result = try await CLIRunner.petspot(["photo", "inspect", PhotoFixtures.testImage("jpeg-baseline.jpg")])

        #expect(result.exitCode == 0, "\(result)")
        #expect(field("upright", in: result.stdout) == "640×480 (no orientation tag)")
        #expect(field("GPS", in: result.stdout) == "none")
        #expect(field("captured", in: result.stdout) == "unknown")
    }

    @Test func jsonHasTheDocumentedSnakeCaseFieldsWithTheFileValues() async throws {
        let result = try await CLIRunner.petspot(["photo", "inspect", "--json", samplePhoto])

        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let records = try result.jsonArray()
        let record = try #require(records.count == 1 ? records[0] : nil, "\(result.stdout)")
        #expect(record["file"] as? String == samplePhoto)
        #expect(record["type"] as? String == "jpeg")
        #expect(record["mime_type"] as? String == "image/jpeg")
        #expect(record["width"] as? Int == 1200)
        #expect(record["height"] as? Int == 1600)
        #expect(record["stored_width"] as? Int == 1600)
        #expect(record["stored_height"] as? Int == 1200)
        #expect(record["orientation"] as? Int == 6)
        let latitude = try #require(record["latitude"] as? Double)
        let longitude = try #require(record["longitude"] as? Double)
        #expect(abs(latitude - 52.23) < 1e-6)
        #expect(abs(longitude - 21.01) < 1e-6)
        #expect(record["captured_at"] as? String == "2024-06-15T14:30:00+02:00")
        #expect(record["has_alpha"] as? Bool == false)
        #expect(record["bytes"] as? Int == (try PhotoFixtures.bytes(samplePhoto)).count)
        // Absent values are left out rather than written as camelCase or null.
        #expect(record["icc_profile_bytes"] == nil)
        #expect(record["extension_mismatch"] == nil)
        #expect(record["error"] == nil)
        #expect(record.keys.allSatisfy { $0 == $0.lowercased() }, "keys: \(record.keys.sorted())")
    }

    @Test func jsonReportsTheICCProfileSizeAndAlpha() async throws {
        let result = try await CLIRunner.petspot([
            "photo", "inspect", "--json",
            PhotoFixtures.testImage("jpeg-icc-srgb.jpg"), PhotoFixtures.testImage("png-rgba-alpha.png"),
        ])

        #expect(result.exitCode == 0, "\(result)")
        let records = try result.jsonArray()
        try #require(records.count == 2)
        #expect(records[0]["icc_profile_bytes"] as? Int == 588)
        #expect(records[0]["has_alpha"] as? Bool == false)
        #expect(records[1]["type"] as? String == "png")
        #expect(records[1]["has_alpha"] as? Bool == true)
        #expect(records[1]["width"] as? Int == 96)
        #expect(records[1]["height"] as? Int == 64)
    }

    @Test(arguments: 1...8)
    func jsonGivesTheOrientationTagAndTheUprightSize(orientation: Int) async throws {
        let result = try await CLIRunner.petspot([
            "photo", "inspect", "--json", PhotoFixtures.testImage("exif-orientation-\(orientation).jpg"),
        ])

        #expect(result.exitCode == 0, "\(result)")
        let record = try #require(try result.jsonArray().first)
        #expect(record["orientation"] as? Int == orientation)
        #expect(record["width"] as? Int == 96)
        #expect(record["height"] as? Int == 64)
        #expect(record["stored_width"] as? Int == (orientation >= 5 ? 64 : 96))
        #expect(record["stored_height"] as? Int == (orientation >= 5 ? 96 : 64))
    }

    @Test(arguments: [
        ("bad-zero-bytes.jpg", "empty"),
        ("bad-not-an-image.jpg", "This is a plain text file (text/plain); PetSpot accepts JPEG, PNG, WebP, HEIC or AVIF"),
    ])
    func badFileAmongGoodOnesIsReportedOnStderrAndExits65(badName: String, messageFragment: String) async throws {
        let good1 = PhotoFixtures.testImage("jpeg-baseline.jpg")
        let bad = PhotoFixtures.testImage(badName)
        let good2 = PhotoFixtures.testImage("png-palette.png")

        let result = try await CLIRunner.petspot(["photo", "inspect", good1, bad, good2])

        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stderr.hasPrefix("error: \(bad): "), "\(result.stderr)")
        #expect(result.stderr.contains(messageFragment), "\(result.stderr)")
        #expect(!result.stderr.contains(good1) && !result.stderr.contains(good2))
        #expect(result.stdout.contains(good1 + "\n") && result.stdout.contains(good2 + "\n"), "\(result.stdout)")
        #expect(!result.stdout.contains(bad))
    }

    @Test func jsonKeepsTheBadFileAsAnErrorRecordAndExits65() async throws {
        let bad = PhotoFixtures.testImage("bad-not-an-image.jpg")

        let result = try await CLIRunner.petspot(["photo", "inspect", "--json", samplePhoto, bad])

        #expect(result.exitCode == 65, "\(result)")
        let records = try result.jsonArray()
        try #require(records.count == 2, "\(result.stdout)")
        #expect(records[0]["error"] == nil)
        #expect(records[1]["file"] as? String == bad)
        let error = try #require(records[1]["error"] as? [String: Any])
        #expect(error["code"] as? String == "unsupported:text/plain")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(records[1]["type"] == nil)
        #expect(result.stderr.contains("error: \(bad):"), "errors also reach stderr in JSON mode")
    }

    @Test func missingFileExits66AndNamesThePath() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let missing = folder.appendingPathComponent("no-such-photo.jpg").path

            let result = try await CLIRunner.petspot(["photo", "inspect", missing])

            #expect(result.exitCode == 66, "\(result)")
            // The path once, not "error: X: Cannot read X: …".
            #expect(result.stderr.hasPrefix("error: Cannot read \(missing): "), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: missing).count == 2, "\(result.stderr)")
        }
    }

    @Test(.enabled(if: PhotoFixtures.hasCorpus, "PETSPOT_CORPUS is not set"))
    func iPhoneHEICShowsUprightSizeBitDepthImagesAndColourProfile() async throws {
        let heic = PhotoFixtures.corpusFile("heif/pillowheif-arrow-iphone8plus.heic")
        try #require(FileManager.default.fileExists(atPath: heic), "corpus file missing: \(heic)")

        let human = try await CLIRunner.petspot(["photo", "inspect", heic])
        let json = try await CLIRunner.petspot(["photo", "inspect", "--json", heic])

        #expect(human.exitCode == 0, "\(human)")
        let type = try #require(field("type", in: human.stdout), "\(human.stdout)")
        #expect(type.hasPrefix("HEIC photo (image/heic), HEVC, 8-bit, primary image of 1, 1 thumbnail"), "\(type)")
        #expect(type.contains("EXIF orientation 6 ignored"), "\(type)")
        // irot=3 is applied by libheif; the EXIF tag 6 is not applied on top of it.
        #expect(field("upright", in: human.stdout) == "3024×4032 (no orientation tag)", "\(human.stdout)")
        #expect(field("ICC profile", in: human.stdout)?.hasPrefix("yes") == true, "\(human.stdout)")
        #expect(json.exitCode == 0, "\(json)")
        let record = try #require(try json.jsonArray().first)
        #expect(record["type"] as? String == "heic")
        #expect(record["width"] as? Int == 3024 && record["height"] as? Int == 4032)
        #expect(record["orientation"] == nil)
        #expect((record["icc_profile_bytes"] as? Int ?? 0) > 0)
    }

    @Test(.enabled(if: PhotoFixtures.hasCorpus, "PETSPOT_CORPUS is not set"))
    func mp4NamedHEICIsRefusedWithTheAcceptedFormats() async throws {
        let movie = PhotoFixtures.corpusFile("heif/gen-mp4-isom-named.heic")
        try #require(FileManager.default.fileExists(atPath: movie), "corpus file missing: \(movie)")

        let result = try await CLIRunner.petspot(["photo", "inspect", movie])

        #expect(result.exitCode == 65, "\(result)")
        #expect(result.stderr.hasPrefix("error: \(movie): "), "\(result.stderr)")
        #expect(result.stderr.contains("PetSpot accepts JPEG, PNG, WebP, HEIC or AVIF"), "\(result.stderr)")
    }

    @Test func extensionMismatchIsANoteNotAFailure() async throws {
        let misnamed = PhotoFixtures.testImage("wrong-extension-png-named.jpg")

        let human = try await CLIRunner.petspot(["photo", "inspect", misnamed])
        let json = try await CLIRunner.petspot(["photo", "inspect", "--json", misnamed])

        #expect(human.exitCode == 0, "\(human)")
        #expect(human.stderr.isEmpty)
        #expect(field("type", in: human.stdout)?.hasPrefix("PNG image (image/png)") == true, "\(human.stdout)")
        let note = try #require(field("note", in: human.stdout), "\(human.stdout)")
        #expect(note.contains(".jpg") && note.contains("PNG"), "\(note)")
        #expect(json.exitCode == 0, "\(json)")
        let record = try #require(try json.jsonArray().first)
        #expect(record["type"] as? String == "png")
        #expect((record["extension_mismatch"] as? String)?.contains("PNG") == true)
    }

    @Test func noFilesIsAUsageError() async throws {
        let result = try await CLIRunner.petspot(["photo", "inspect"])

        #expect(result.exitCode == 64, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }
}
