import Foundation
import GRDB
import PhotoPipeline

extension SQLiteAnnouncementStore: PhotoSignatureStoring {
    public func signature(for photoKey: String) async throws -> ColourSignature? {
        let text = try await pool.read { db in
            try String.fetchOne(db, sql: "SELECT signature FROM photo_signature WHERE photo_key = ?", arguments: [photoKey])
        }
        return text.flatMap { try? JSONDecoder().decode(ColourSignature.self, from: Data($0.utf8)) }
    }

    public func storeSignature(_ signature: ColourSignature, for photoKey: String) async throws {
        let text = String(decoding: try JSONEncoder().encode(signature), as: UTF8.self)
        try await pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO photo_signature (photo_key, signature) VALUES (?, ?)", arguments: [photoKey, text])
        }
    }
}
