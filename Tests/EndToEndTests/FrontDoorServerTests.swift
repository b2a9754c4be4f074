#if canImport(Glibc)
import Glibc
#endif
import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import Testing
import TestProcesses

/// The first hour with the built binaries: an install from PATH, the server's help and its
/// environment, phone numbers in one normal form, a submission stopped with Ctrl-C, a photo
/// re-fitted small.
@Suite struct FrontDoorServerTests {
    typealias Home = ReportSubmitCLITests.Home

    /// The folder `swift build` wrote the binaries to.
    static let buildFolder = ServerProcess.binary.deletingLastPathComponent().path

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theInstallScriptPutsEveryCommandOnPathAndUpgradesInPlace() async throws {
        let prefix = try makeTemporaryDirectory("install")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let script = Self.repository.appendingPathComponent("scripts/install.sh").path
        let installed = try await runProcessToEnd(script, ["--prefix", prefix, "--build-dir", Self.buildFolder])
        #expect(installed.0 == 0, "\(installed.1)")
        for file in ["bin/petspot", "bin/petspot-server", "libexec/petspot/petspot-full", "share/man/man1/petspot.1",
                     "share/man/man1/petspot-server.1", "share/bash-completion/completions/petspot",
                     "share/zsh/site-functions/_petspot", "share/fish/vendor_completions.d/petspot.fish"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: prefix + "/" + file)[.size] as? Int) ?? 0
            #expect(size > 0, "\(file) missing or empty")
        }
        #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/petspot-full"), "the helper stays out of PATH")
        let page = try String(contentsOfFile: prefix + "/share/man/man1/petspot.1", encoding: .utf8)
        #expect(page.hasPrefix(".TH \"PETSPOT\" \"1\"") && page.contains("PETSPOT PHOTO PREPARE") && page.contains("\\-\\-out\\-dir")
                || page.contains("--out-dir"), "\(page.prefix(600))")

        // The tour, by name from PATH, in a fresh home.
        let home = try makeTemporaryDirectory("install-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let environment = ["PATH": prefix + "/bin:/usr/bin:/bin", "HOME": home, "PETSPOT_CACHE_DIR": home + "/cache",
                           "PETSPOT_STATE_DIR": home + "/state"]
        let sample = Self.repository.appendingPathComponent("TestImages/sample-photo.jpg").path
        let tour: [([String], String)] = [
            (["--version"], "."), (["photo", "inspect", sample], "1200"), (["photo", "add", sample], "cache"),
            (["cache", "list"], "image/jpeg"), (["report", "missing", "--species", "dog"], "Breed/race"),
            (["report", "show", "--flow", "missing"], "Dog"), (["submissions", "list"], "No report"),
            (["help", "pet", "show"], "EXIT CODES"),
        ]
        for (arguments, expected) in tour {
            let (status, output) = try await runProcessToEnd("/usr/bin/env", ["petspot"] + arguments, environment: environment)
            #expect(status == 0 && output.contains(expected), "petspot \(arguments.joined(separator: " ")): \(status) \(output)")
        }
        let (serverStatus, serverHelp) = try await runProcessToEnd("/usr/bin/env", ["petspot-server", "--help"], environment: environment)
        #expect(serverStatus == 0 && serverHelp.contains("--max-photo-bytes"), "\(serverHelp)")

        // A second run upgrades in place, and says where it put things.
        let again = try await runProcessToEnd(script, ["--prefix", prefix, "--build-dir", Self.buildFolder])
        #expect(again.0 == 0 && again.1.contains("Installed PetSpot"), "\(again.1)")
        let bad = try await runProcessToEnd(script, ["--prefix", prefix, "--build-dir", prefix + "/nowhere"])
        #expect(bad.0 == 66 && bad.1.contains("swift build -c release"), "\(bad.1)")
    }

    @Test func theServersHelpShowsServeAndItsEnvironmentIsNamed() async throws {
        let (status, help) = try await runProcessToEnd(ServerProcess.binary.path, ["--help"])
        #expect(status == 0, "\(help)")
        #expect(help.contains("--max-photo-bytes") && help.contains("--database-url") && help.contains("OTHER COMMANDS")
                && help.contains("migrate"), "\(help)")

        let data = try makeTemporaryDirectory("env-named")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (badStatus, badOutput) = try await runProcessToEnd(ServerProcess.binary.path, ["--data-dir", data],
                                                               environment: ["PETSPOT_PORT": "eighty"])
        #expect(badStatus == 64 && badOutput.contains("PETSPOT_PORT") && badOutput.contains("--port"), "\(badOutput)")
        let (sizeStatus, sizeOutput) = try await runProcessToEnd(ServerProcess.binary.path, ["--data-dir", data],
                                                                 environment: ["PETSPOT_MAX_PHOTO_BYTES": "lots"])
        #expect(sizeStatus == 64 && sizeOutput.contains("PETSPOT_MAX_PHOTO_BYTES"), "\(sizeOutput)")
    }

    @Test func byteSizesTakeUnitsAndAMisspeltVariableIsWarnedAbout() async throws {
        let data = try makeTemporaryDirectory("units")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data, arguments: ["--max-photo-bytes", "20KB", "--log-level", "notice"],
                                       environment: ["PETSPOT_MAX_PHOTO_BYTE": "1MB"])
        let created = try await HTTP.create(server.baseURL)
        let photo = try TestImages.bytes("jpeg-baseline.jpg")
        #expect(photo.count > 20_000)
        let refused = try await HTTP.upload(photo, base: server.baseURL, to: created)
        #expect(refused.status == 413 && String(decoding: refused.body, as: UTF8.self).contains("20000"),
                "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")
        #expect(server.stop() == 0)
        #expect(server.log.contains("petspot-server does not read PETSPOT_MAX_PHOTO_BYTE; did you mean PETSPOT_MAX_PHOTO_BYTES?"),
                "\(server.log.prefix(2000))")
    }

    @Test func phoneNumbersAreStoredInOneNormalFormOfUpToFifteenDigits() async throws {
        let data = try makeTemporaryDirectory("phones")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        for (typed, stored) in [("+44 20 7946 0958", "+442079460958"), ("(022) 123-45-67", "0221234567"),
                                ("+1 (555) 010-9999", "+15550109999"), ("+86 138 0013 8000", "+8613800138000")] {
            let body = HTTP.announcementJSON.replacingOccurrences(of: #""phone":"0412345678""#, with: #""phone":"\#(typed)""#)
            let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 201, "\(typed): \(String(decoding: reply.body, as: UTF8.self))")
            let created = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
            let details = try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id))
            #expect(try PetSpotJSON.decode(PetDetails.self, from: Data(details.body)).phone == stored)
        }
        let tooLong = HTTP.announcementJSON.replacingOccurrences(of: #""phone":"0412345678""#, with: #""phone":"+86 138 0013 8000 1234""#)
        let refused = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                          headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: tooLong)))
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("Enter at most 15 digits"))
        #expect(server.stop() == 0)
    }

    @Test func ctrlCDuringTheUploadSaysWhereTheReportIsAndHowToCarryOn() async throws {
        let home = try Home("interrupt")
        defer { home.remove() }
        try home.fillMissingReport()
        // A stall far longer than the test waits: the upload is certainly still in flight when
        // the signal goes (the wait polls without needing a free cooperative thread).
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.stall(seconds: 300)])
        defer { proxy.close() }
        let first = try home.start(["report", "submit", "--server", proxy.baseURL, "--read-timeout", "600"])
        let deadline = Date().addingTimeInterval(120)
        while proxy.photoRequests == 0 && Date() < deadline { usleep(50_000) }
        usleep(200_000)
        try #require(proxy.photoRequests == 1 && first.process.isRunning, "the upload never reached the proxy: \(first.stderr)")
        first.process.send(SIGINT)
        let status = await first.process.exitStatus()
        #expect(status == 130, "\(first.stderr)")
        #expect(first.stderr.contains("interrupted. Where the report stands: the announcement is posted; its photo is not uploaded yet.")
                && first.stderr.contains("Run `petspot report submit` again to carry on"), "\(first.stderr)")
        let resumed = try home.run(["report", "submit"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try await home.announcements().count == 1)
        let listed = try home.run(["submissions", "list"])
        #expect(listed.stdout.contains("posted") && !listed.stdout.contains("completed"), "\(listed.stdout)")
    }

    @Test func aPhotoReFittedUnder640PixelsSaysSo() async throws {
        let home = try Home("refit-small", serverArguments: ["--max-photo-bytes", "4000"])
        defer { home.remove() }
        try home.fillMissingReport(photo: "sample-photo.jpg")
        let submitted = try home.run(["report", "submit"])
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let url = try #require(try await home.announcements().first?["photoUrl"] as? String)
        let served = try await HTTP.send(.GET, url)
        let size = try PhotoPipeline.inspect(served.body).storedSize
        #expect(max(size.width, size.height) < 640)
        #expect(submitted.stderr.contains("note: to fit, the photo is now \(size.width) × \(size.height) pixels, under 640"),
                "\(submitted.stderr)")
    }
}
