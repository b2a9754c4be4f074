#if canImport(Glibc)
import Glibc
#endif
import Crypto
import Foundation
import PetSpot
import PetSpotClient
import PhotoPipeline
import Testing

/// The upload module against the real `petspot-server` on 127.0.0.1, with a fault-injecting
/// proxy in front of it for 5xx, 429, dropped connections and stalls. Every case ends with
/// exactly one announcement holding exactly the prepared photo's bytes.
@Suite(.serialized) struct ClientSubmissionTests {
    /// A running server, a journal folder and a prepared photo on disk.
    struct Bench {
        let folder: String
        let server: ServerProcess
        let journal: SubmissionJournal
        let photo: PhotoReference
        let photoDigest: String

        init(_ label: String) throws {
            folder = try makeTemporaryDirectory(label)
            server = try ServerProcess(dataDirectory: folder + "/server")
            journal = SubmissionJournal(directory: folder + "/state/submissions")
            let prepared = try PhotoPipeline.prepare(try TestImages.bytes("exif-orientation-6.jpg"))
            let path = folder + "/prepared.jpg"
            try Data(prepared.data).write(to: URL(fileURLWithPath: path))
            photoDigest = SHA256.hash(data: prepared.data).map { String(format: "%02x", $0) }.joined()
            photo = PhotoReference(cacheKey: photoDigest, path: path, mimeType: "image/jpeg", byteCount: prepared.data.count,
                                   width: prepared.size.width, height: prepared.size.height)
        }

        /// `body` with a submitter whose client is shut down however `body` ends: an HTTP client
        /// freed while still running stops the whole test process, every other test with it.
        func withSubmitter<T>(via url: String? = nil, readTimeout: Duration = .seconds(60), retry: RetryPolicy = .fast,
                              _ body: (Submitter) async throws -> T) async throws -> T {
            let submitter = Submitter(client: PetSpotAPIClient(configuration: ClientConfiguration(server: url ?? server.baseURL, connectTimeout: .seconds(5),
                                                                                                  readTimeout: readTimeout, retry: retry)),
                                      journal: journal)
            do {
                let result = try await body(submitter)
                await submitter.client.shutdown()
                return result
            } catch {
                await submitter.client.shutdown()
                throw error
            }
        }

        static let request = CreateAnnouncementRequest(
            species: .dog, sex: .male, lastSeenDate: LocalDate(year: 2025, month: 11, day: 18)!,
            locationLatitude: 52.2297, locationLongitude: 21.0122, email: "owner@example.com", phone: "+48123456789",
            status: .missing, description: "He answers to \"Rex\"\nred collar, $50 reward 🐶")

        /// Submits through a proxy that meets the photo uploads with `faults`; the record and how
        /// many photo uploads reached the proxy.
        func submit(through faults: [FaultProxy.Fault], readTimeout: Duration = .seconds(60)) async throws -> (SubmissionRecord, photoRequests: Int) {
            let proxy = try FaultProxy(upstream: server.baseURL, faults: faults)
            let record = try await withSubmitter(via: proxy.baseURL, readTimeout: readTimeout) {
                try await $0.submit(flow: "missing", request: Self.request, photo: photo)
            }
            return (record, proxy.photoRequests)
        }

        /// Exactly one announcement on the server, holding exactly the prepared photo.
        func expectOneAnnouncementWithThePhoto(_ record: SubmissionRecord) async throws {
            let list = try await HTTP.send(.GET, server.baseURL + "/api/v1/announcements?limit=100")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any])
            let data = try #require(json["data"] as? [[String: Any]])
            #expect(data.count == 1)
            #expect(data.first?["id"] as? String == record.announcementID?.rawValue)
            #expect(data.first?["description"] as? String == Self.request.description)
            let url = try #require(record.photoURL)
            let path = String(url.dropFirst(server.baseURL.count))
            let served = try await HTTP.send(.GET, server.baseURL + path)
            #expect(SHA256.hash(data: served.body).map { String(format: "%02x", $0) }.joined() == photoDigest)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test func theSuccessPath() async throws {
        let bench = try Bench("client-ok")
        defer { bench.remove() }
        let record = try await bench.withSubmitter { try await $0.submit(flow: "missing", request: Bench.request, photo: bench.photo) }
        #expect(record.state == .completed)
        #expect(AnnouncementCredentials.isWellFormedPassword(record.managementPassword ?? ""))
        try await bench.expectOneAnnouncementWithThePhoto(record)
        // The journal file holds it, mode 0600.
        let path = bench.journal.directory + "/\(record.id).json"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try bench.journal.record(id: record.id)?.state == .completed)
    }

    @Test func thePhotoStepSurvivesTwo500s() async throws {
        let bench = try Bench("client-500")
        defer { bench.remove() }
        let (record, photoRequests) = try await bench.submit(through: [.answer(status: 500), .answer(status: 500)])
        #expect(photoRequests == 3)
        try await bench.expectOneAnnouncementWithThePhoto(record)
    }

    @Test func a429WithRetryAfterIsHonoured() async throws {
        let bench = try Bench("client-429")
        defer { bench.remove() }
        let start = ContinuousClock.now
        let (record, photoRequests) = try await bench.submit(through: [.answer(status: 429, headers: ["Retry-After: 1"])])
        #expect(ContinuousClock.now - start >= .seconds(1))
        #expect(photoRequests == 2)
        try await bench.expectOneAnnouncementWithThePhoto(record)
    }

    @Test func aConnectionDroppedMidUploadIsRetried() async throws {
        let bench = try Bench("client-drop")
        defer { bench.remove() }
        let (record, photoRequests) = try await bench.submit(through: [.dropAfter(bodyBytes: 2048)])
        #expect(photoRequests == 2)
        try await bench.expectOneAnnouncementWithThePhoto(record)
    }

    @Test func aStalledAnswerHitsTheReadTimeoutAndIsRetried() async throws {
        let bench = try Bench("client-stall")
        defer { bench.remove() }
        let (record, photoRequests) = try await bench.submit(through: [.stall(seconds: 4)], readTimeout: .seconds(1))
        #expect(photoRequests == 2)
        try await bench.expectOneAnnouncementWithThePhoto(record)
    }

    @Test func aWrongPasswordFailsFastWithoutRetriesAndIsNotDuplicated() async throws {
        let bench = try Bench("client-401")
        defer { bench.remove() }
        // The create step succeeded earlier; the journal's password was damaged since.
        let created = try await HTTP.create(bench.server.baseURL)
        var record = SubmissionRecord(flow: "missing", server: bench.server.baseURL, request: Bench.request, photo: bench.photo)
        record.announcementID = created.id
        record.managementPassword = created.managementPassword == "000000" ? "000001" : "000000"
        record.state = .uploadingPhoto
        try bench.journal.save(record)
        let proxy = try FaultProxy(upstream: bench.server.baseURL, faults: [])
        try await bench.withSubmitter(via: proxy.baseURL) { submitter in
            await #expect(throws: SubmissionError.self) {
                _ = try await submitter.submit(flow: "missing", request: Bench.request, photo: bench.photo)
            }
            let saved = try #require(try bench.journal.record(id: record.id))
            do {
                _ = try await submitter.resume(saved)
                Issue.record("a wrong password was accepted")
            } catch let error as SubmissionError {
                #expect(error.status == 401)
                #expect(error.userMessage == SubmissionMessage.generic)
                #expect(!error.detail.contains(record.managementPassword!))
            }
        }
        #expect(proxy.photoRequests == 2)  // one per call, never retried
        let list = try await HTTP.send(.GET, bench.server.baseURL + "/api/v1/announcements")
        #expect((try JSONSerialization.jsonObject(with: Data(list.body)) as? [String: Any])?["data"].map { ($0 as? [Any])?.count } == 1)
        #expect(try bench.journal.record(id: record.id)?.state == .uploadingPhoto)
    }

    @Test func aRetriedCreateNeverMakesASecondAnnouncement() async throws {
        let bench = try Bench("client-create")
        defer { bench.remove() }
        // As if a first run sent the create and died before writing down the answer.
        let record = SubmissionRecord(flow: "found", server: bench.server.baseURL, request: Bench.request, photo: bench.photo)
        try bench.journal.save(record)
        let key = record.idempotencyKey
        let resumed = try await bench.withSubmitter { first in
            _ = try await first.client.createAnnouncement(Bench.request, idempotencyKey: key)
            return try await first.submit(flow: "found", request: Bench.request, photo: bench.photo)
        }
        #expect(resumed.id == record.id)
        try await bench.expectOneAnnouncementWithThePhoto(resumed)
    }

    @Test func offlineSaysNoConnection() async throws {
        let bench = try Bench("client-offline")
        defer { bench.remove() }
        bench.server.stop()
        try await bench.withSubmitter(retry: .none) { submitter in
            do {
                _ = try await submitter.submit(flow: "missing", request: Bench.request, photo: bench.photo)
                Issue.record("submitting to a stopped server succeeded")
            } catch let error as SubmissionError {
                #expect(error.userMessage == SubmissionMessage.offline, "\(error.detail)")
            }
        }
        #expect(try bench.journal.unfinished(flow: "missing")?.state == .creating)
    }
}

extension RetryPolicy {
    /// Quick retries for tests (Retry-After still wins).
    static let fast = RetryPolicy(maxAttempts: 4, maxTotalTime: .seconds(30), baseDelay: .milliseconds(50), maxDelay: .milliseconds(200))
}
