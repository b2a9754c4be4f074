#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import TestProcesses
import PetSpot
import Testing

/// `petspot report submit` as a person runs it: the built binary, a real server on 127.0.0.1,
/// drafts and cache in a temporary folder.
@Suite(.serialized) struct ReportSubmitCLITests {
    static let petspot = BuiltProduct.url("petspot")

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// A folder with state/ and cache/, and a running server.
    struct Home {
        let folder: String
        let server: ServerProcess

        /// - Parameter places: a GeoNames file imported into the server's store before it starts.
        init(_ label: String, serverArguments: [String] = [], places: String? = nil) throws {
            folder = try makeTemporaryDirectory(label)
            if let places {
                let storage = try TestBackend.configured.settings(for: folder + "/server", given: [])
                let process = try ChildProcess(ServerProcess.binary, ["places", "import", places, "--data-dir", folder + "/server"],
                                               environment: ProcessInfo.processInfo.environment.merging(storage.environment) { $1 },
                                               error: .inherited)
                try #require(process.waitForExit() == 0, "places import failed")
            }
            server = try ServerProcess(dataDirectory: folder + "/server", arguments: serverArguments)
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["PETSPOT_STATE_DIR"] = folder + "/state"
            environment["PETSPOT_CACHE_DIR"] = folder + "/cache"
            environment["PETSPOT_SERVER"] = server.baseURL
            return environment
        }

        /// Runs `petspot` to the end.
        func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
            let process = try start(arguments, environment: environment)
            let status = process.process.waitForExit()
            return Run(status: status, stdout: process.stdout, stderr: process.stderr)
        }

        /// Runs a shell command under `script`, on a pseudo-terminal (stdout and stderr merged).
        func run(viaScript command: String) throws -> Run {
            let started = try Started(folder: folder, "/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment)
            let status = started.process.waitForExit()
            return Run(status: status, stdout: started.stdout, stderr: started.stderr)
        }

        /// Starts `petspot` without waiting.
        func start(_ arguments: [String], environment: [String: String]? = nil) throws -> Started {
            try Started(folder: folder, ReportSubmitCLITests.petspot.path, arguments, environment: environment ?? self.environment)
        }

        /// Fills a complete missing-pet report with flags.
        func fillMissingReport(photo: String = "exif-orientation-6.jpg") throws {
            let result = try run(["report", "missing", "--chip", "123456789012345",
                                  "--photo", TestImages.folder.appendingPathComponent(photo).path,
                                  "--species", "dog", "--breed", "Labrador", "--sex", "male", "--age", "3", "--date", "2025-11-18",
                                  "--lat", "52.2297", "--lon", "21.0122", "--description", "Answers to \"Rex\"; $50 reward 🐶",
                                  "--phone", "+48 123 456 789", "--email", "owner@example.com"])
            #expect(result.status == 0, "\(result.stderr)")
        }

        /// Every announcement on the server.
        func announcements() async throws -> [[String: Any]] {
            let list = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements?limit=100")
            return (try JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any])?["data"] as? [[String: Any]] ?? []
        }

        /// The SHA-256 of the only photo file in the cache.
        func cachedPhotoDigest() throws -> String {
            let photos = FileManager.default.enumerator(atPath: folder + "/cache/photos")?.allObjects.compactMap { $0 as? String }
                .filter { $0.hasSuffix(".jpg") } ?? []
            try #require(photos.count == 1)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/cache/photos/" + photos[0]))
            return SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        }

        func servedPhotoDigest(_ url: String) async throws -> String {
            let path = String(url.dropFirst(server.baseURL.count))
            let served = try await HTTP.send(.GET, server.baseURL + path)
            return SHA256.hash(data: served.body).map { String(format: "%02x", $0) }.joined()
        }

        func remove() { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// A started program whose stdout and stderr go to files in the home folder.
    final class Started {
        let process: ChildProcess
        let outPath: String
        let errPath: String

        init(folder: String, _ executable: String, _ arguments: [String], environment: [String: String]) throws {
            let label = UUID().uuidString.prefix(8)
            outPath = folder + "/out-\(label).txt"
            errPath = folder + "/err-\(label).txt"
            process = try ChildProcess(executable, arguments, environment: environment, output: .file(outPath), error: .file(errPath))
        }

        var stdout: String { (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" }
        var stderr: String { (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" }
    }

    @Test func submitSendsTheDraftPrintsThePasswordOnceAndClearsTheDraft() async throws {
        let home = try Home("cli-submit")
        defer { home.remove() }
        try home.fillMissingReport()
        let digest = try home.cachedPhotoDigest()
        let result = try home.run(["report", "submit", "--flow", "missing", "--verbose"])
        #expect(result.status == 0, "\(result.stderr)")
        let announcements = try await home.announcements()
        #expect(announcements.count == 1)
        let id = try #require(announcements.first?["id"] as? String)
        #expect(result.stdout.contains(id))
        #expect(announcements.first?["description"] as? String == "Answers to \"Rex\"; $50 reward 🐶")
        // What the user typed reaches the announcement.
        #expect(announcements.first?["breed"] as? String == "Labrador" && announcements.first?["approximateAge"] as? String == "3")
        let details = try home.run(["pet", "show", id])
        #expect(details.stdout.contains("Breed        Labrador") && details.stdout.contains("Age          3 years"), "\(details.stdout)")
        #expect(!result.stdout.contains("Not sent"), "the missing flow sends everything it asks")
        let password = try #require(result.stdout.split(separator: "\n").first { $0.contains("management password:") }?
            .split(separator: " ").last.map(String.init))
        #expect(AnnouncementCredentials.isWellFormedPassword(password))
        #expect(result.stdout.components(separatedBy: password).count == 2, "printed exactly once")
        #expect(!result.stderr.contains(password), "never in the verbose lines")
        #expect(try await home.servedPhotoDigest(try #require(announcements.first?["photoUrl"] as? String)) == digest)
        // The draft is cleared, the history keeps the submission.
        #expect(!FileManager.default.fileExists(atPath: home.folder + "/state/drafts/missing.json"))
        let list = try home.run(["submissions", "list", "--json"])
        #expect(list.stdout.contains(id) && list.stdout.contains("completed") && !list.stdout.contains(password))
        // Nothing secret in the cache folder.
        let cacheFiles = FileManager.default.enumerator(atPath: home.folder + "/cache")?.allObjects.compactMap { $0 as? String } ?? []
        for file in cacheFiles where !file.hasSuffix(".jpg") {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: home.folder + "/cache/" + file))) ?? Data()
            #expect(data.range(of: Data(password.utf8)) == nil, "\(file)")
        }
        let shown = try home.run(["pet", "show", id])
        #expect(shown.status == 0 && shown.stdout.contains("MISSING"))
        let listed = try home.run(["pet", "list", "--json"])
        #expect(listed.status == 0 && listed.stdout.contains(id))
        // The photo is released: no cache entry is pinned any more.
        let cached = try home.run(["cache", "list", "--json"])
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(cached.stdout.utf8)) as? [[String: Any]], "\(cached.stdout)")
        #expect(entries.count == 1)
        #expect(entries.allSatisfy { ($0["pins"] as? [String])?.isEmpty == true }, "\(cached.stdout)")
        // The history names it; retrying a finished submission sends nothing.
        let submission = try #require(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]).first?["submission"] as? String
        let detail = try home.run(["submissions", "show", try #require(submission)])
        #expect(detail.stdout.contains(id) && detail.stdout.contains("posted, with its photo") && !detail.stdout.contains(password))
        let retried = try home.run(["submissions", "retry", try #require(submission)])
        #expect(retried.status == 0 && retried.stdout.contains("already complete"))
        #expect(try await home.announcements().count == 1)
    }

    @Test func aSubmissionKilledBetweenTheStepsIsResumedWithoutASecondAnnouncement() async throws {
        let home = try Home("cli-kill")
        defer { home.remove() }
        try home.fillMissingReport()
        let digest = try home.cachedPhotoDigest()
        // The photo step stalls behind the proxy; the process is killed while it waits.
        let proxy = try FaultProxy(upstream: home.server.baseURL, faults: [.stall(seconds: 30)])
        let first = try home.start(["report", "submit", "--flow", "missing", "--server", proxy.baseURL, "--read-timeout", "60"])
        let deadline = Date().addingTimeInterval(30)
        while proxy.photoRequests == 0 && Date() < deadline { usleep(50_000) }
        #expect(proxy.photoRequests == 1)
        first.process.send(SIGKILL)
        _ = await first.process.exitStatus()
        #expect(try await home.announcements().count == 1)

        let second = try home.run(["report", "submit", "--flow", "missing"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("Resuming"))
        let announcements = try await home.announcements()
        #expect(announcements.count == 1)
        #expect(try await home.servedPhotoDigest(try #require(announcements.first?["photoUrl"] as? String)) == digest)
        #expect(proxy.photoRequests == 2)
    }

    @Test func offlineSaysNoConnectionAndKeepsTheDraft() async throws {
        let home = try Home("cli-offline")
        defer { home.remove() }
        try home.fillMissingReport()
        home.server.stop()
        let result = try home.run(["report", "submit", "--flow", "missing", "--max-attempts", "1", "--connect-timeout", "1"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("No connection. Please check your network and try again."))
        #expect(FileManager.default.fileExists(atPath: home.folder + "/state/drafts/missing.json"))
        let verbose = try home.run(["report", "submit", "--flow", "missing", "--max-attempts", "1", "--connect-timeout", "1", "--json"])
        #expect(verbose.stdout.contains("\"exit_code\" : 69"))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux `script` runs petspot on a pseudo-terminal"))
    func onATerminalThePhotoStepShowsItsProgress() async throws {
        let home = try Home("cli-progress")
        defer { home.remove() }
        try home.fillMissingReport()
        let command = "'\(ReportSubmitCLITests.petspot.path)' report submit --flow missing"
        let result = try home.run(viaScript: command)
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("Uploading photo:") && result.stdout.contains("(100%)"), "\(result.stdout)")
        // Not on a terminal: no progress line.
        try home.fillMissingReport()
        let plain = try home.run(["report", "submit", "--flow", "missing"])
        #expect(!plain.stderr.contains("Uploading photo:"))
    }

    /// With the wizard's questions open on the draft in another process, `report submit` sends
    /// nothing (the wizard's next save would bring the sent draft back, to be sent twice): exit 75,
    /// naming the process; once the wizard ends, the same command sends it.
    @Test func aDraftOpenInTheWizardIsNotSent() async throws {
        let home = try Home("cli-locked")
        defer { home.remove() }
        try home.fillMissingReport()
        // A live wizard's record in the draft's lock, as `petspot report missing` writes it (this
        // test process stands in for the wizard's).
        let fd = open(home.folder + "/state/drafts/missing.lock", O_RDWR | O_CREAT, 0o600)
        try #require(fd >= 0)
        try #require(flock(fd, LOCK_EX | LOCK_NB) == 0)
        let record = Array("wizard pid=\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = record.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        let refused = try home.run(["report", "submit", "--flow", "missing"])
        #expect(refused.status == 75, "\(refused.stderr)")
        #expect(refused.stderr.contains("open in the questions of another petspot (process \(getpid()))"), "\(refused.stderr)")
        #expect(try await home.announcements().isEmpty)
        #expect(FileManager.default.fileExists(atPath: home.folder + "/state/drafts/missing.json"))
        close(fd)
        let sent = try home.run(["report", "submit", "--flow", "missing"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try await home.announcements().count == 1)
        #expect(!FileManager.default.fileExists(atPath: home.folder + "/state/drafts/missing.json"))
    }

    @Test func anIncompleteDraftIsRefusedWithEveryProblem() async throws {
        let home = try Home("cli-incomplete")
        defer { home.remove() }
        _ = try home.run(["report", "missing", "--species", "dog"])
        let result = try home.run(["report", "submit", "--flow", "missing"])
        #expect(result.status == 65)
        #expect(result.stdout.contains("Phone") && result.stdout.contains("Email"))
        #expect(try await home.announcements().isEmpty)
    }
}
