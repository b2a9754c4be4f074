import Foundation
import PhotoPipeline
import PostgresNIO

extension PostgresAnnouncementStore: PhotoSignatureStoring {
    public func signature(for photoKey: String) async throws -> ColourSignature? {
        try await mapped { try await leased { connection in
            var text: String?
            for try await value in try await connection.query(
                "SELECT signature FROM photo_signature WHERE photo_key = \(photoKey)", logger: self.logger).decode(String.self) {
                text = value
            }
            return text.flatMap { try? JSONDecoder().decode(ColourSignature.self, from: Data($0.utf8)) }
        } }
    }

    public func storeSignature(_ signature: ColourSignature, for photoKey: String) async throws {
        let text = String(decoding: try JSONEncoder().encode(signature), as: UTF8.self)
        try await mapped { try await leased { connection in
            try await connection.query("""
                INSERT INTO photo_signature (photo_key, signature) VALUES (\(photoKey), \(text))
                ON CONFLICT (photo_key) DO NOTHING
                """, logger: self.logger).collectAll()
        } }
    }
}
