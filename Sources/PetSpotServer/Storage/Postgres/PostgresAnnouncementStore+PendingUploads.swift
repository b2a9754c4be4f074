import Foundation
import PostgresNIO

extension PostgresAnnouncementStore: PendingUploadStoring {
    public func insertPendingUpload(_ upload: PendingUpload, storing: @escaping @Sendable () async throws -> Void) async throws {
        try await photoSlots.withSlot { try await self.mapped {
            try await self.transaction { connection in
                // The lock ``removePhotoIfUnreferenced`` takes: a sweep of the same key waits, then finds it in use.
                try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(upload.photoKey), 3))", logger: self.logger).collectAll()
                try await storing()
                try await connection.query("""
                    INSERT INTO pending_upload (token_digest, browser_digest, photo_key, width, height, latitude, longitude, created_at)
                    VALUES (\(upload.tokenDigest), \(upload.browserDigest), \(upload.photoKey), \(upload.width), \(upload.height),
                            \(upload.latitude), \(upload.longitude), \(upload.createdAt.timeIntervalSince1970))
                    """, logger: self.logger).collectAll()
            }
        } }
    }

    public func pendingUpload(tokenDigest: String) async throws -> PendingUpload? {
        try await mapped { try await leased { connection in
            var found: PendingUpload?
            for try await (token, browser, key, width, height, latitude, longitude, created) in try await connection.query("""
                SELECT token_digest, browser_digest, photo_key, width, height, latitude, longitude, created_at
                FROM pending_upload WHERE token_digest = \(tokenDigest)
                """, logger: self.logger).decode((String, String, String, Int, Int, Double?, Double?, Double).self) {
                found = PendingUpload(tokenDigest: token, browserDigest: browser, photoKey: key, width: width, height: height,
                                      latitude: latitude, longitude: longitude, createdAt: Date(timeIntervalSince1970: created))
            }
            return found
        } }
    }

    public func removePendingUpload(tokenDigest: String) async throws {
        try await mapped { try await leased { connection in
            try await connection.query("DELETE FROM pending_upload WHERE token_digest = \(tokenDigest)", logger: self.logger).collectAll()
        } }
    }

    public func expirePendingUploads(before date: Date) async throws -> [String] {
        try await mapped { try await leased { connection in
            var keys: Set<String> = []
            for try await key in try await connection.query(
                "DELETE FROM pending_upload WHERE created_at < \(date.timeIntervalSince1970) RETURNING photo_key",
                logger: self.logger).decode(String.self) {
                keys.insert(key)
            }
            return keys.sorted()
        } }
    }
}
