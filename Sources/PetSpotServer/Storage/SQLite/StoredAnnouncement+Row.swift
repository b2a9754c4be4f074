import Foundation
import GRDB
import PetSpot

/// Row mapping for the `announcement` table, spelled out column by column so the schema and
/// the wire types can change independently.
extension StoredAnnouncement {
    static let columns = """
        id, status, species, sex, last_seen_date, latitude, longitude, email, phone,
        microchip_number, description, reward, password_hash, photo_key, created_at, updated_at,
        breed, approximate_age, pet_name, closed_outcome, closed_at, revision, deleted_at, place_text, session_generation
        """

    /// Reads a row selected with ``columns``.
    /// - Throws: ``StorageError/damagedRow(_:)`` when a stored value no longer parses.
    init(row: Row) throws {
        let idText: String = row["id"]
        guard let id = AnnouncementID(rawValue: idText),
              let status = AnnouncementStatus(rawValue: row["status"]),
              let species = Species(rawValue: row["species"]),
              let sex = Gender(rawValue: row["sex"]),
              let date = LocalDate(row["last_seen_date"] as String)
        else { throw StorageError.damagedRow(idText) }
        let outcomeText: String? = row["closed_outcome"]
        let outcome = try outcomeText.map { text in
            guard let outcome = ClosedOutcome(rawValue: text) else { throw StorageError.damagedRow(idText) }
            return outcome
        }
        let request = CreateAnnouncementRequest(
            species: species, sex: sex, lastSeenDate: date,
            locationLatitude: row["latitude"], locationLongitude: row["longitude"],
            email: row["email"], phone: row["phone"], status: status,
            microchipNumber: row["microchip_number"], description: row["description"], reward: row["reward"],
            breed: row["breed"], approximateAge: row["approximate_age"], petName: row["pet_name"])
        let closedAt: Double? = row["closed_at"]
        self.init(id: id, request: request, passwordHash: row["password_hash"], photoKey: row["photo_key"],
                  createdAt: Date(timeIntervalSince1970: row["created_at"]),
                  updatedAt: Date(timeIntervalSince1970: row["updated_at"]),
                  closedOutcome: outcome, closedAt: closedAt.map(Date.init(timeIntervalSince1970:)),
                  revision: row["revision"],
                  deletedAt: (row["deleted_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                  placeText: row["place_text"], sessionGeneration: row["session_generation"])
    }

    /// Inserts the row.
    func insert(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO announcement (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       arguments: [id.rawValue, request.status.rawValue, request.species.rawValue, request.sex.rawValue,
                                   request.lastSeenDate.description, request.locationLatitude, request.locationLongitude,
                                   request.email, request.phone, request.microchipNumber, request.description,
                                   request.reward, passwordHash, photoKey,
                                   createdAt.timeIntervalSince1970, updatedAt.timeIntervalSince1970,
                                   request.breed, request.approximateAge, request.petName,
                                   closedOutcome?.rawValue, closedAt?.timeIntervalSince1970, revision,
                                   deletedAt?.timeIntervalSince1970, placeText, sessionGeneration])
    }
}

/// Row mapping for the `idempotency_key` table.
extension IdempotencyRecord {
    init(row: Row) throws {
        let idText: String = row["announcement_id"]
        guard let id = AnnouncementID(rawValue: idText) else { throw StorageError.damagedRow(idText) }
        self.init(keyDigest: row["key_digest"], requestDigest: row["request_digest"], announcementID: id,
                  sealedResponse: [UInt8](row["sealed_response"] as Data),
                  createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    func insert(_ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO idempotency_key (key_digest, request_digest, announcement_id, sealed_response, created_at)
            VALUES (?, ?, ?, ?, ?)
            """, arguments: [keyDigest, requestDigest, announcementID.rawValue, Data(sealedResponse), createdAt.timeIntervalSince1970])
    }
}
