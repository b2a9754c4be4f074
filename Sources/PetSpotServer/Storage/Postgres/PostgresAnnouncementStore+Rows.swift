import Foundation
import NIOCore
import PetSpot
import PostgresNIO

/// Row mapping for the PostgreSQL tables, column by column as for SQLite.
extension StoredAnnouncement {
    /// `SELECT <columns> FROM announcement WHERE <column> = <value>` with the value bound.
    static func selectQuery(where condition: String, _ value: String) -> PostgresQuery {
        var query = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 1)
        query.appendLiteral("SELECT \(columns) FROM announcement WHERE \(condition)")
        query.appendInterpolation(value)
        return PostgresQuery(stringInterpolation: query)
    }

    var insertQuery: PostgresQuery {
        """
        INSERT INTO announcement (\(unescaped: Self.columns))
        VALUES (\(id.rawValue), \(request.status.rawValue), \(request.species.rawValue), \(request.sex.rawValue),
                \(request.lastSeenDate.description), \(request.locationLatitude), \(request.locationLongitude),
                \(request.email), \(request.phone), \(request.microchipNumber), \(request.description), \(request.reward),
                \(passwordHash), \(photoKey), \(createdAt.timeIntervalSince1970), \(updatedAt.timeIntervalSince1970),
                \(request.breed), \(request.approximateAge), \(request.petName),
                \(closedOutcome?.rawValue), \(closedAt?.timeIntervalSince1970), \(revision), \(deletedAt?.timeIntervalSince1970),
                \(placeText), \(sessionGeneration))
        """
    }

    /// Reads a row selected with ``columns`` (the same list as SQLite's).
    /// - Throws: ``StorageError/damagedRow(_:)`` when a stored value no longer parses.
    init(_ row: PostgresRandomAccessRow) throws {
        let idText = try row["id"].decode(String.self)
        guard let id = AnnouncementID(rawValue: idText),
              let status = AnnouncementStatus(rawValue: try row["status"].decode(String.self)),
              let species = Species(rawValue: try row["species"].decode(String.self)),
              let sex = Gender(rawValue: try row["sex"].decode(String.self)),
              let date = LocalDate(try row["last_seen_date"].decode(String.self))
        else { throw StorageError.damagedRow(idText) }
        let outcome = try row["closed_outcome"].decode(String?.self).map { text in
            guard let outcome = ClosedOutcome(rawValue: text) else { throw StorageError.damagedRow(idText) }
            return outcome
        }
        let request = CreateAnnouncementRequest(
            species: species, sex: sex, lastSeenDate: date,
            locationLatitude: try row["latitude"].decode(Double.self), locationLongitude: try row["longitude"].decode(Double.self),
            email: try row["email"].decode(String.self), phone: try row["phone"].decode(String.self), status: status,
            microchipNumber: try row["microchip_number"].decode(String?.self), description: try row["description"].decode(String?.self),
            reward: try row["reward"].decode(String?.self), breed: try row["breed"].decode(String?.self),
            approximateAge: try row["approximate_age"].decode(Int?.self), petName: try row["pet_name"].decode(String?.self))
        self.init(id: id, request: request, passwordHash: try row["password_hash"].decode(String.self),
                  photoKey: try row["photo_key"].decode(String?.self),
                  createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)),
                  updatedAt: Date(timeIntervalSince1970: try row["updated_at"].decode(Double.self)),
                  closedOutcome: outcome,
                  closedAt: try row["closed_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                  revision: try row["revision"].decode(Int.self),
                  deletedAt: try row["deleted_at"].decode(Double?.self).map(Date.init(timeIntervalSince1970:)),
                  placeText: try row["place_text"].decode(String?.self),
                  sessionGeneration: try row["session_generation"].decode(Int.self))
    }
}

extension IdempotencyRecord {
    /// Inserts the record unless one with its key digest exists; returns the key digest when it
    /// inserted.
    var insertQuery: PostgresQuery {
        """
        INSERT INTO idempotency_key (key_digest, request_digest, announcement_id, sealed_response, created_at)
        VALUES (\(keyDigest), \(requestDigest), \(announcementID.rawValue), \(ByteBuffer(bytes: sealedResponse)),
                \(createdAt.timeIntervalSince1970))
        ON CONFLICT (key_digest) DO NOTHING RETURNING key_digest
        """
    }

    init(_ row: PostgresRandomAccessRow) throws {
        let idText = try row["announcement_id"].decode(String.self)
        guard let id = AnnouncementID(rawValue: idText) else { throw StorageError.damagedRow(idText) }
        var sealed = try row["sealed_response"].decode(ByteBuffer.self)
        self.init(keyDigest: try row["key_digest"].decode(String.self), requestDigest: try row["request_digest"].decode(String.self),
                  announcementID: id, sealedResponse: sealed.readBytes(length: sealed.readableBytes) ?? [],
                  createdAt: Date(timeIntervalSince1970: try row["created_at"].decode(Double.self)))
    }
}

extension PostgresRowSequence {
    /// The first row as an announcement; reads the rest so the connection is free again.
    func firstAnnouncement() async throws -> StoredAnnouncement? {
        var first: StoredAnnouncement?
        for try await row in self where first == nil {
            first = try StoredAnnouncement(row.makeRandomAccess())
        }
        return first
    }

    func firstRecord() async throws -> IdempotencyRecord? {
        var first: IdempotencyRecord?
        for try await row in self where first == nil {
            first = try IdempotencyRecord(row.makeRandomAccess())
        }
        return first
    }
}
