import Foundation
import HummingbirdBcrypt
import NIOCore
import PetSpot
import PetSpotServer
import Testing
import TestEngines

/// The keyed password check against the built `petspot-server`: a copy of the database alone
/// tests no password, the key stays out of it, old bcrypt rows are sealed at start, and a server
/// on PostgreSQL without a key refuses to start.
@Suite struct PasswordKeyTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `hmac-sha256$vN$…` form in `bytes`.
    static func keyedForms(in bytes: [UInt8]) -> [(version: Int, mac: [UInt8])] {
        let text = String(decoding: bytes.map { $0 < 0x80 ? $0 : 0x20 }, as: UTF8.self)
        let pattern = try! Regex(#"hmac-sha256\$v([0-9]+)\$([A-Za-z0-9+/]{43}=)"#)
        return text.matches(of: pattern).compactMap { match in
            guard let version = Int(match.output[1].substring ?? ""),
                  let mac = Data(base64Encoded: String(match.output[2].substring ?? "")) else { return nil }
            return (version, [UInt8](mac))
        }
    }

    @Test func aCopyOfTheDatabaseAloneTestsNoPassword() async throws {
        let data = try makeTemporaryDirectory("offline")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        var created: [AnnouncementResponse] = []
        for n in 0..<3 {
            let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                            headers: [("Content-Type", "application/json"), ("Idempotency-Key", "offline-\(n)-\(UUID().uuidString)")],
                                            body: .bytes(ByteBuffer(string: HTTP.announcementJSON)))
            created.append(try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body)))
        }
        #expect(server.stop() == 0)
        let dump = try await server.storedDatabase()
        let forms = Self.keyedForms(in: dump)
        #expect(forms.count == 3, "one keyed form per announcement")
        #expect(dump.firstRange(of: Array("$2b$".utf8)) == nil && dump.firstRange(of: Array("$2a$".utf8)) == nil, "no bcrypt hash")
        let ids = created.map(\.id.rawValue)
        let dumpPath = data + ".dump"
        try Data(dump).write(to: URL(fileURLWithPath: dumpPath))
        defer { try? FileManager.default.removeItem(atPath: dumpPath) }

        // Every six-digit password against every row, with what the copy offers as a key
        // (nothing, or the ids it holds): none matches.
        let guess = Self.repository.appendingPathComponent("scripts/offline-guess.py").path
        let offline = try await runProcess("/usr/bin/env", ["python3", guess, dumpPath] + ids)
        #expect(offline.isEmpty, "found offline: \(offline)")

        // The same search with the server's key finds the password: the search itself works.
        let real = try #require(try server.passwordKeyring().keys.first { $0.version == forms[0].version })
        let found = try await runProcess("/usr/bin/env", ["python3", guess, dumpPath, ids[0], "--key", real.base64])
        #expect(found == "\(ids[0]) \(created[0].managementPassword)")
        #expect(dump.firstRange(of: Array(real.base64.utf8)) == nil, "the key is not in the database")
    }

    @Test(.enabled(if: TestBackend.configured == .embedded, "the embedded installation's own key"))
    func theEmbeddedKeyIsMadeOnceInTheDataDirectoryReadableByItsOwnerOnly() async throws {
        let data = try makeTemporaryDirectory("keyfile")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(server.baseURL)
        #expect(server.stop() == 0)
        let path = data + "/password-keys"
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let before = try String(contentsOfFile: path, encoding: .utf8)
        // A restart keeps the key: the owner's password still works.
        let again = try ServerProcess(dataDirectory: data)
        let reply = try await HTTP.send(.PATCH, again.baseURL + AnnouncementsAPI.announcementPath(id: created.id),
                                        headers: [("Content-Type", "application/merge-patch+json"),
                                                  ("Authorization", created.credentials.authorizationHeader)],
                                        body: .bytes(ByteBuffer(string: #"{"description":"still mine"}"#)))
        #expect(reply.status == 200)
        #expect(again.stop() == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    @Test(.enabled(if: TestBackend.configured == .embedded, "edits the SQLite file; PostgreSQL's path is PasswordKeyringTests'"))
    func bcryptRowsOfAnEarlierServerAreSealedAtStartAndStillOpen() async throws {
        let data = try makeTemporaryDirectory("bcrypt-rows")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let first = try ServerProcess(dataDirectory: data)
        let created = try await HTTP.create(first.baseURL)
        #expect(first.stop() == 0)
        // The row as a server before the keys left it.
        let bcrypt = Bcrypt.hash(created.managementPassword, cost: 4)
        let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('UPDATE announcement SET password_hash=? WHERE id=?', (sys.argv[2], sys.argv[3])); c.commit()"
        _ = try await runProcess("/usr/bin/env", ["python3", "-c", script, data + "/petspot-server.sqlite", bcrypt, created.id.rawValue])

        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-level", "notice"])
        let sealed = try await server.storedDatabase()
        #expect(sealed.firstRange(of: Array("$2b$".utf8)) == nil && sealed.firstRange(of: Array("bcrypt-sealed$v".utf8)) != nil)
        let url = server.baseURL + AnnouncementsAPI.announcementPath(id: created.id)
        func patch(_ password: String) async throws -> Int {
            let credentials = AnnouncementCredentials(id: created.id, managementPassword: password)
            return try await HTTP.send(.PATCH, url, headers: [("Content-Type", "application/merge-patch+json"),
                                                              ("Authorization", credentials.authorizationHeader)],
                                       body: .bytes(ByteBuffer(string: #"{"description":"x"}"#))).status
        }
        #expect(try await patch(created.managementPassword == "000000" ? "000001" : "000000") == 401)
        #expect(try await patch(created.managementPassword) == 200)
        #expect(server.stop() == 0)
        #expect(server.log.contains("sealed 1 bcrypt password hash(es)"), "\(server.log.suffix(2000))")
        #expect(Self.keyedForms(in: try await server.storedDatabase()).count == 1, "stored in the fast form after its check")
    }

    @Test func aServerOnPostgreSQLWithoutAKeyRefusesToStart() async throws {
        let engines = try TestBackend.engines.get()
        let data = try makeTemporaryDirectory("no-key")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let database = try await engines.postgres.database("nokey")
        let (status, output) = try await runProcessToEnd(ServerProcess.binary.path, ["--port", "0", "--data-dir", data],
                                                         environment: ["PETSPOT_DATABASE_URL": database])
        #expect(status == 73, "\(output)")
        #expect(output.contains("needs the password key") && output.contains("PETSPOT_PASSWORD_KEY")
                && output.contains("--password-key-file"), "\(output)")
        #expect(!output.contains("listening"))
        let (badStatus, badOutput) = try await runProcessToEnd(ServerProcess.binary.path, ["--port", "0", "--data-dir", data],
                                                               environment: ["PETSPOT_DATABASE_URL": database, "PETSPOT_PASSWORD_KEY": "v1:c2hvcnQ="])
        #expect(badStatus == 78 && badOutput.contains("not 32 or more bytes") && !badOutput.contains("c2hvcnQ="), "\(badOutput)")
    }
}

extension ServerProcess {
    /// The server's stored database as bytes: the SQLite file (and its WAL) or a `pg_dump`.
    func storedDatabase() async throws -> [UInt8] {
        try await backend.storeDump(dataDirectory: dataDirectory)
    }

    /// The keys this server checks passwords with: its data directory's, or the one every
    /// PostgreSQL-backed test server is given.
    func passwordKeyring() throws -> PasswordKeyring {
        if backend == .embedded {
            return try PasswordKeyring.parse(try String(contentsOfFile: dataDirectory + "/password-keys", encoding: .utf8))
        }
        return try PasswordKeyring.parse(Self.sharedPasswordKey)
    }
}
