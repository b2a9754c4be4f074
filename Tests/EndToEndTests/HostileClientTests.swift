import Foundation
import NIOCore
import PetSpot
@testable import PhotoPipeline
import Testing
import TestProcesses

/// What a hostile client tries against the built `petspot-server` over real HTTP, on the
/// configured backend: photos whose scans cost far more than their bytes, bytes riding in colour
/// profiles and thumbnails, text that costs more than it shows, part headers without end, and
/// what a take-down leaves on disk.
@Suite struct HostileClientTests {
    /// The server's user and system CPU time so far, in milliseconds (from /proc; clock ticks of 10 ms).
    static func cpuMilliseconds(_ server: ServerProcess) -> Int {
        let stat = (try? String(contentsOfFile: "/proc/\(server.process.processIdentifier)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name's closing parenthesis; utime and stime are the 14th and 15th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return 0 }
        return (user + system) * 1000 / Int(sysconf(Int32(_SC_CLK_TCK)))
    }

    static func text(_ reply: HTTP.Reply) -> String { String(decoding: reply.body, as: UTF8.self) }

    @Test func scanBombsAreRefusedAtOnceAndNothingIsStored() async throws {
        let data = try makeTemporaryDirectory("scan-bomb")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        for name in ["bomb-jpeg-scans-8192x6100.jpg", "bomb-jpeg-scans-1200x2048.jpg"] {
            let bomb = try TestImages.bytes(name)
            let before = Self.cpuMilliseconds(server)
            let reply = try await HTTP.upload(bomb, base: server.baseURL, to: created)
            let spent = Self.cpuMilliseconds(server) - before
            #expect(reply.status == 422, "\(name): \(Self.text(reply))")
            #expect(Self.text(reply).contains("464 scans would make the decoder go over"), "\(Self.text(reply))")
            // Receiving the body (slower in a debug server) and the refusal; libjpeg takes seconds.
            #expect(spent < 500, "\(name): \(spent) ms of server CPU")
        }
        #expect(try await server.storedPhotos().isEmpty)
        #expect(server.stop() == 0)
    }

    /// 500 characters of a letter under 60 combining marks each (60 KB): within the character cap,
    /// over the byte cap, in a create and in an edit; the same text a tenth as long is fine.
    @Test func textOverItsByteCapIsRefusedInCreatesAndEdits() async throws {
        let data = try makeTemporaryDirectory("text-bytes")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let heavy = String(repeating: "a" + String(repeating: "\u{0301}", count: 60), count: 500)
        #expect(heavy.count == 500 && heavy.utf8.count == 60_500)
        func json(_ field: String, _ value: String) throws -> String {
            let encoded = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
            return HTTP.announcementJSON.replacingOccurrences(of: "\"status\":\"FOUND\"", with: "\"status\":\"FOUND\",\"\(field)\":\(encoded)")
        }
        let description = try json("description", heavy).replacingOccurrences(of: #","description":"Grey \"Mia\"\nfriendly, $0 reward 🐱""#, with: "")
        let create = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                         body: .bytes(ByteBuffer(string: description)))
        #expect(create.status == 400, "\(Self.text(create).prefix(300))")
        #expect(Self.text(create).contains("Description must be at most 5000 bytes of text"), "\(Self.text(create).prefix(300))")
        #expect(Self.text(create).contains(#""field":"description""#))

        let created = try await HTTP.create(server.baseURL)
        let url = server.baseURL + AnnouncementsAPI.announcementPath(id: created.id)
        let auth = ("Authorization", created.credentials.authorizationHeader)
        for (field, value, message) in [
            ("pet_name", String(repeating: "Ż" + String(repeating: "\u{0308}", count: 20), count: 40), "Pet name must be at most 1000 bytes"),
            ("reward", String(repeating: "€\u{20DD}\u{20DD}\u{20DD}", count: 110), "Reward must be at most 1200 bytes"),
            ("email", String(repeating: "ą", count: 200) + "@example.org", "Email must be at most 254 bytes"),
        ] {
            let body = String(decoding: try JSONEncoder().encode([field: value]), as: UTF8.self)
            let reply = try await HTTP.send(.PATCH, url, headers: [("Content-Type", "application/json"), auth], body: .bytes(ByteBuffer(string: body)))
            #expect(reply.status == 400 && Self.text(reply).contains(message), "\(field): \(Self.text(reply).prefix(300))")
        }
        let light = String(repeating: "a\u{0301}", count: 500)
        let fine = try await HTTP.send(.PATCH, url, headers: [("Content-Type", "application/json"), auth],
                                       body: .bytes(ByteBuffer(string: String(decoding: try JSONEncoder().encode(["description": light]), as: UTF8.self))))
        #expect(fine.status == 200, "\(Self.text(fine).prefix(300))")
        #expect(server.stop() == 0)
    }

    /// Part headers are limited in number, size and parts before multipart-kit buffers them: a
    /// 19 MB body of tiny headers is refused within its first kilobytes.
    @Test func multipartPartsAndHeadersAreBounded() async throws {
        let data = try makeTemporaryDirectory("multipart-bounds")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        let photo = HTTP.multipart(try TestImages.bytes("jpeg-baseline.jpg"))
        func post(_ body: [UInt8]) async throws -> HTTP.Reply {
            try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.photosPath(id: created.id),
                                headers: [("Content-Type", "multipart/form-data; boundary=e2e-boundary-91c2"),
                                          ("Authorization", created.credentials.authorizationHeader)],
                                body: .bytes(ByteBuffer(bytes: body)))
        }
        let field = "--e2e-boundary-91c2\r\nContent-Disposition: form-data; name=\"note\"\r\n"
        let manyHeaders = Array((field + String(repeating: "X-A: b\r\n", count: 17) + "\r\nhi\r\n").utf8) + photo
        let longHeader = Array((field + "X-A: " + String(repeating: "b", count: 9000) + "\r\n\r\nhi\r\n").utf8) + photo
        let manyParts = Array(String(repeating: field + "\r\nhi\r\n", count: 17).utf8) + photo
        for (body, phrase) in [(manyHeaders, "header lines"), (longHeader, "KiB"), (manyParts, "parts")] {
            let reply = try await post(body)
            #expect(reply.status == 400 && Self.text(reply).contains(phrase), "\(Self.text(reply))")
        }
        // Within the limits, a field beside the photo is fine.
        let fine = Array((field + "X-A: b\r\n\r\nhi\r\n").utf8) + photo
        #expect(try await post(fine).status == 201)

        // Four million tiny headers (19 MB declared) in one part, sent by hand: the guard refuses the
        // chunk that passes 16 lines and the server stops reading; its memory does not grow.
        let peak = server.peakMemoryMB()
        let connection = try RawConnection(port: Int(server.baseURL.split(separator: ":").last!)!)
        let lines = Array(String(repeating: "A:b\r\n", count: 65_536).utf8)
        let head = Array("--b\r\nContent-Disposition: form-data; name=\"note\"\r\n".utf8)
        try connection.send(RawConnection.uploadHead(to: created, contentLength: head.count + lines.count * 60) + head)
        var sent = 0
        while sent < 60, (try? connection.send(lines)) != nil { sent += 1 }
        let answer = String(decoding: connection.receiveUntilClosed(timeout: 10).bytes, as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("header lines"), "\(answer.prefix(300))")
        #expect(sent < 60, "the server read all \(sent) chunks of headers")
        #expect(server.peakMemoryMB() - peak < 40, "peak \(peak) → \(server.peakMemoryMB()) MB")
        #expect(server.stop() == 0)
    }

    /// After a take-down answers 204, the erased contact details and description are in no file
    /// of the store while the server runs: SQLite's database and write-ahead log (secure_delete,
    /// then the log checkpointed and cut), or — on PostgreSQL — no row version of the table (the
    /// dead one vacuumed right after).
    @Test func aTakeDownLeavesNothingReadableInTheStore() async throws {
        let data = try makeTemporaryDirectory("erased")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let secret = "erase-me-\(UUID().uuidString.prefix(8))"
        let body = HTTP.announcementJSON.replacingOccurrences(of: "finder@example.org", with: "\(secret)@example.org")
            .replacingOccurrences(of: #""description":"Grey \"Mia\"\nfriendly, $0 reward 🐱""#, with: "\"description\":\"\(secret) description\"")
        let create = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                         body: .bytes(ByteBuffer(string: body)))
        let created = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(create.body))
        // Another announcement's edits, so the log holds more than the one row's pages.
        let other = try await HTTP.create(server.baseURL)
        for day in 1...5 {
            _ = try await HTTP.send(.PATCH, server.baseURL + AnnouncementsAPI.announcementPath(id: other.id),
                                    headers: [("Content-Type", "application/json"), ("Authorization", other.credentials.authorizationHeader)],
                                    body: .bytes(ByteBuffer(string: "{\"last_seen_date\":\"2025-10-0\(day)\"}")))
        }
        let deleted = try await HTTP.send(.DELETE, server.baseURL + AnnouncementsAPI.announcementPath(id: created.id),
                                          headers: [("Authorization", created.credentials.authorizationHeader)])
        #expect(deleted.status == 204)
        switch server.backend {
        case .embedded:
            for file in ["petspot-server.sqlite", "petspot-server.sqlite-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: data + "/" + file))) ?? Data()
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) still holds the erased text")
            }
        case .postgresS3:
            let url = try await TestBackend.engines.get().postgres.database(TestBackend.name(for: data))
            _ = try await runProcess("/usr/bin/env", ["psql", url, "-At", "-c", "CREATE EXTENSION IF NOT EXISTS pageinspect"])
            // Every tuple of every page of the table, live or dead, as PostgreSQL keeps it.
            let query = """
                SELECT count(*) FROM generate_series(0, pg_relation_size('announcement') / 8192 - 1) AS page,
                  LATERAL heap_page_items(get_raw_page('announcement', page::int)) AS item
                WHERE position(convert_to('\(secret)', 'UTF8') IN item.t_data) > 0
                """
            var left = "?"
            let deadline = ContinuousClock.now + .seconds(15)
            repeat {
                left = try await runProcess("/usr/bin/env", ["psql", url, "-At", "-c", query]).trimmingCharacters(in: .whitespacesAndNewlines)
                if left == "0" { break }
                try await Task.sleep(for: .milliseconds(200))
            } while ContinuousClock.now < deadline
            #expect(left == "0", "row versions holding the erased text: \(left)")
        }
        #expect(server.stop() == 0)
    }
}
