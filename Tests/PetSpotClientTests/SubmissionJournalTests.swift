import Foundation
import PetSpot
import Testing
@testable import PetSpotClient
import TestScratch

@Suite struct SubmissionJournalTests {
    static let request = CreateAnnouncementRequest(
        species: .cat, sex: .female, lastSeenDate: LocalDate(year: 2025, month: 11, day: 18)!,
        locationLatitude: -33.8688, locationLongitude: 151.2093, email: "finder@example.org", phone: "0412345678", status: .found)

    func journal() throws -> SubmissionJournal {
        SubmissionJournal(directory: try ScratchFolder.make("journal") + "/submissions")
    }

    @Test func recordsAreSavedAtomicallyPrivateAndReadBack() throws {
        let journal = try journal()
        var record = SubmissionRecord(flow: "found", server: "http://127.0.0.1:8080", request: Self.request, photo: nil)
        record.announcementID = AnnouncementID(rawValue: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        record.managementPassword = "042917"
        record.state = .uploadingPhoto
        try journal.save(record)
        let path = journal.directory + "/\(record.id).json"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: journal.directory)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let read = try #require(try journal.record(id: record.id))
        #expect(read.announcementID == record.announcementID && read.managementPassword == "042917")
        #expect(read.credentials?.id.rawValue == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
        #expect(try journal.unfinished(flow: "found")?.id == record.id)
        #expect(try journal.unfinished(flow: "missing") == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: journal.directory).filter { !$0.hasSuffix(".json") }
        #expect(leftovers.isEmpty)
    }

    @Test func aDamagedRecordIsReportedNotSkipped() throws {
        let journal = try journal()
        let record = SubmissionRecord(flow: "found", server: "http://x.test", request: Self.request, photo: nil)
        try journal.save(record)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: journal.directory + "/\(record.id).json"))
        #expect(throws: SubmissionError.self) { _ = try journal.all() }
    }

    @Test func idsThatAreNotJournalIdsNeverBecomePaths() throws {
        let journal = try journal()
        #expect(try journal.record(id: "../../etc/passwd") == nil)
        #expect(try journal.record(id: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") == nil)
    }

    /// Found by the `journal` fuzzer: a record file whose id is not its file name loaded, and the
    /// next save wrote it to `<its id>.json` — another submission's file, or outside the folder
    /// for an id such as `../x`. Such a file is now reported as not this submission's.
    @Test func aRecordFileHoldingAnotherIdIsReportedNotFollowed() throws {
        let journal = try journal()
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fuzz/journal-record-with-another-id.json")
        let fileID = "5f0c3e9a-2b1d-4c6e-8f7a-9b0c1d2e3f40"
        try FileManager.default.createDirectory(atPath: journal.directory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: fixture.path, toPath: journal.directory + "/\(fileID).json")
        do {
            _ = try journal.record(id: fileID)
            Issue.record("a record holding another id was loaded")
        } catch {
            #expect(error.description.contains("another id"))
            #expect(error.description.contains(fileID))
        }
        #expect(throws: SubmissionError.self) { _ = try journal.all() }

        let escaping = SubmissionRecord(id: "../escaped", flow: "found", server: "http://x.test", request: Self.request, photo: nil)
        #expect(throws: SubmissionError.self) { try journal.save(escaping) }
        #expect(!FileManager.default.fileExists(atPath: journal.directory + "/../escaped.json"))
    }
}
