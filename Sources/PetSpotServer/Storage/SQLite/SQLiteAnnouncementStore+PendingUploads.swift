import Foundation
import GRDB

extension SQLiteAnnouncementStore: PendingUploadStoring {
    public func insertPendingUpload(_ upload: PendingUpload, storing: @escaping @Sendable () async throws -> Void) async throws {
        try await photoKeys.withLock(upload.photoKey) {
            try await storing()
            try await pool.write { db in
                try db.execute(sql: """
                    INSERT INTO pending_upload (token_digest, browser_digest, photo_key, width, height, latitude, longitude, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [upload.tokenDigest, upload.browserDigest, upload.photoKey, upload.width, upload.height,
                                     upload.latitude, upload.longitude, upload.createdAt.timeIntervalSince1970])
            }
        }
    }

    public func pendingUpload(tokenDigest: String) async throws -> PendingUpload? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM pending_upload WHERE token_digest = ?", arguments: [tokenDigest]).map { row in
                PendingUpload(tokenDigest: row["token_digest"], browserDigest: row["browser_digest"], photoKey: row["photo_key"],
                              width: row["width"], height: row["height"], latitude: row["latitude"], longitude: row["longitude"],
                              createdAt: Date(timeIntervalSince1970: row["created_at"]))
            }
        }
    }

    public func removePendingUpload(tokenDigest: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "DELETE FROM pending_upload WHERE token_digest = ?", arguments: [tokenDigest])
        }
    }

    public func expirePendingUploads(before date: Date) async throws -> [String] {
        try await pool.write { db in
            let keys = try String.fetchAll(db, sql: "SELECT photo_key FROM pending_upload WHERE created_at < ?",
                                           arguments: [date.timeIntervalSince1970])
            try db.execute(sql: "DELETE FROM pending_upload WHERE created_at < ?", arguments: [date.timeIntervalSince1970])
            return Array(Set(keys)).sorted()
        }
    }
}
