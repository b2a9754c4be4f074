import Crypto
import Foundation
import HTTPTypes
import HummingbirdBcrypt
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// Management passwords checked with a key the database does not hold, on the configured backend.
@Suite struct PasswordKeyringTests {
    /// The stored form of an announcement's password, read from the store.
    private func storedForm(_ server: TestServer, _ id: AnnouncementID) async throws -> String {
        try #require(try await server.store.announcement(id: id)).passwordHash
    }

    @Test func aNewRowHoldsAKeyedMACThatOnlyItsPasswordAndTheKeyMatch() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let stored = try await storedForm(server, created.id)
            #expect(stored.hasPrefix("hmac-sha256$v\(TestServer.keyring.writeKey.version)$"), "\(stored)")
            #expect(!stored.contains(created.managementPassword))
            let keyring = TestServer.keyring
            #expect(await keyring.verify(id: created.id.rawValue, password: created.managementPassword, stored: stored) == .match(restore: nil))
            // Another id with the same password, or another key, does not match.
            #expect(await keyring.verify(id: AnnouncementID.random().rawValue, password: created.managementPassword, stored: stored) == .mismatch)
            let other = try PasswordKeyring.parse(PasswordKeyring.newKeyLine(version: TestServer.keyring.writeKey.version))
            #expect(await other.verify(id: created.id.rawValue, password: created.managementPassword, stored: stored) == .mismatch)
            // Through HTTP: the right password uploads, a wrong one is 401.
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
            let wrong = created.managementPassword == "000000" ? "000001" : "000000"
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created, password: wrong).status == .unauthorized)
        }
    }

    @Test func aBcryptRowIsSealedAtStartAndStoredInTheFastFormOnItsFirstCheck() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let created = try await client.createAnnouncement()
            let id = created.id
            // What a server before the keys wrote.
            let bcrypt = Bcrypt.hash(created.managementPassword, cost: 4)
            try await server.store.replacePasswordHash(id: id, from: try await storedForm(server, id), to: bcrypt)
            // What the server does at start.
            let sealed = try await server.store.rewritePasswordHashes { TestServer.keyring.sealBcrypt(id: $0, $1) }
            #expect(sealed >= 1)
            let form = try await storedForm(server, id)
            // Bound to its row: the same sealed hash under another id opens nothing.
            #expect(await TestServer.keyring.verify(id: AnnouncementID.random().rawValue, password: created.managementPassword,
                                                    stored: form) == .mismatch)
            #expect(form.hasPrefix("bcrypt-sealed$v") && !form.contains("$2b$") && !form.contains(String(bcrypt.suffix(31))), "\(form)")
            let wrong = created.managementPassword == "000000" ? "000001" : "000000"
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created, password: wrong).status == .unauthorized)
            #expect(try await storedForm(server, id) == form, "a wrong password changes nothing")
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
            #expect(try await storedForm(server, id).hasPrefix("hmac-sha256$v"))
            #expect(try await client.uploadPhoto(try TestImages.bytes("jpeg-baseline.jpg"), to: created).status == .created)
        }
    }

    @Test func keysRotateNewRowsTakeTheNewestAndAnOldRowMovesOnUse() async throws {
        let v1 = PasswordKeyring.newKeyLine(version: 1), v2 = PasswordKeyring.newKeyLine(version: 2)
        let old = try PasswordKeyring.parse(v1), both = try PasswordKeyring.parse(v1 + "\n" + v2), onlyNew = try PasswordKeyring.parse(v2)
        let id = AnnouncementID.random().rawValue
        let stored = old.seal(id: id, password: "123456")
        #expect(stored.hasPrefix("hmac-sha256$v1$"))
        guard case .match(let restore?) = await both.verify(id: id, password: "123456", stored: stored) else {
            Issue.record("an old key's row matches and asks to be rewritten")
            return
        }
        #expect(restore.hasPrefix("hmac-sha256$v2$"))
        #expect(await onlyNew.verify(id: id, password: "123456", stored: restore) == .match(restore: nil))
        #expect(await onlyNew.verify(id: id, password: "123456", stored: stored) == .mismatch, "a retired key opens nothing")
        #expect(await both.verify(id: id, password: "123457", stored: stored) == .mismatch)
        // Damaged or foreign forms are never a way in.
        for form in ["", "hmac-sha256$v1$", "hmac-sha256$v9$AAAA", "plain$123456", "hmac-sha256$vx$" + stored.suffix(44)] {
            #expect(await both.verify(id: id, password: "123456", stored: form) == .mismatch, "\(form)")
        }
        // A bcrypt hash found in a row at check time was not written by a server: refused, even
        // with its password.
        #expect(await both.verify(id: id, password: "123456", stored: Bcrypt.hash("123456", cost: 4)) == .mismatch)
        // A rotation's first step: the new key is known everywhere, rows are still written with v1.
        let rolling = try PasswordKeyring.parse(v1 + "," + v2, writing: 1)
        #expect(rolling.seal(id: id, password: "123456").hasPrefix("hmac-sha256$v1$"))
        #expect(await rolling.verify(id: id, password: "123456", stored: stored) == .match(restore: nil))
        #expect(throws: PasswordKeyring.KeyringError.self) { try PasswordKeyring.parse(v1, writing: 2) }
        #expect(throws: PasswordKeyring.KeyringError.self) { try PasswordKeyring.parse("v70000:" + v1.dropFirst(3)) }
        #expect(try PasswordKeyring.parse("# keys\r\n" + v1 + "\r\n").keys.count == 1)
        #expect(throws: PasswordKeyring.KeyringError.self) { try PasswordKeyring.parse("v1:short") }
        #expect(throws: PasswordKeyring.KeyringError.self) { try PasswordKeyring.parse(v1 + "," + v1) }
        #expect(throws: PasswordKeyring.KeyringError.self) { try PasswordKeyring.parse("") }
    }

    @Test func theIdempotencyVaultOpensOnlyWithTheRequestsKeyAndTheServerKey() async throws {
        let server = try await TestServer()
        try await server.test { client in
            let key = "vault-\(UUID().uuidString)"
            let headers: HTTPFields = [.contentType: "application/json", AnnouncementRoutes<ServerRequestContext>.idempotencyKeyHeader: key]
            let created = try await client.createAnnouncement(headers: headers)
            let record = try #require(try await server.store.idempotencyRecord(keyDigest: IdempotencyVault.digest(ofKey: key),
                                                                               notBefore: .distantPast))
            #expect(record.sealedResponse.first == 0x02)
            let opened = try IdempotencyVault.open(record.sealedResponse, key: key, keyring: TestServer.keyring)
            #expect(String(decoding: opened, as: UTF8.self).contains(created.managementPassword))
            let otherServer = try PasswordKeyring.parse(PasswordKeyring.newKeyLine(version: TestServer.keyring.writeKey.version))
            #expect(throws: (any Error).self) { try IdempotencyVault.open(record.sealedResponse, key: key, keyring: otherServer) }
            #expect(throws: (any Error).self) { try IdempotencyVault.open(record.sealedResponse, key: key + "x", keyring: TestServer.keyring) }
            // The Idempotency-Key alone, as rows were sealed before the keys, opens nothing.
            let keyOnly = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: Data(key.utf8)),
                                                 salt: Data("petspot-idempotency-seal".utf8), info: Data("v1".utf8), outputByteCount: 32)
            #expect(throws: (any Error).self) {
                try AES.GCM.open(AES.GCM.SealedBox(combined: record.sealedResponse[5...]), using: keyOnly)
            }
            // The replay over HTTP still answers the same password.
            let again = try await client.createAnnouncement(headers: headers)
            #expect(again.managementPassword == created.managementPassword && again.id == created.id)
        }
    }
}
