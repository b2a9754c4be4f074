import Foundation

/// The body of `PATCH /api/v1/announcements/{id}`: a JSON merge patch (RFC 7396) holding only
/// the fields to change, `null` clearing an optional one.
public struct AnnouncementPatchRequest: Encodable, Sendable, Hashable {
    /// One value of the patch.
    public enum Value: Encodable, Sendable, Hashable {
        case string(String)
        case number(Double)
        case integer(Int)
        case null

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .number(let number): try container.encode(number)
            case .integer(let number): try container.encode(number)
            case .null: try container.encodeNil()
            }
        }
    }

    /// The wire keys (`description`, `status`, …) and their new values.
    public var fields: [String: Value]

    public init(fields: [String: Value] = [:]) {
        self.fields = fields
    }

    public var isEmpty: Bool { fields.isEmpty }

    /// Closes the announcement: `{"status": "CLOSED", "closed_outcome": …}`.
    public static func close(_ outcome: ClosedOutcome) -> AnnouncementPatchRequest {
        AnnouncementPatchRequest(fields: ["status": .string("CLOSED"), "closed_outcome": .string(outcome.rawValue)])
    }

    /// Reopens it as the kind it was filed as.
    public static func reopen(as kind: AnnouncementStatus) -> AnnouncementPatchRequest {
        AnnouncementPatchRequest(fields: ["status": .string(kind.rawValue)])
    }

    /// The fields of `new` that differ from `old` (the kind, `status`, never: a patch does not
    /// turn one kind into the other).
    public static func changes(from old: CreateAnnouncementRequest, to new: CreateAnnouncementRequest) -> AnnouncementPatchRequest {
        var fields: [String: Value] = [:]
        func text(_ key: String, _ a: String?, _ b: String?) {
            if a != b { fields[key] = b.map(Value.string) ?? .null }
        }
        if old.species != new.species { fields["species"] = .string(new.species.rawValue) }
        if old.sex != new.sex { fields["sex"] = .string(new.sex.rawValue) }
        if old.lastSeenDate != new.lastSeenDate { fields["last_seen_date"] = .string(new.lastSeenDate.description) }
        if old.locationLatitude != new.locationLatitude { fields["location_latitude"] = .number(new.locationLatitude) }
        if old.locationLongitude != new.locationLongitude { fields["location_longitude"] = .number(new.locationLongitude) }
        text("email", old.email, new.email)
        text("phone", old.phone, new.phone)
        text("microchip_number", old.microchipNumber, new.microchipNumber)
        text("description", old.description, new.description)
        text("reward", old.reward, new.reward)
        text("breed", old.breed, new.breed)
        text("pet_name", old.petName, new.petName)
        if old.approximateAge != new.approximateAge { fields["approximate_age"] = new.approximateAge.map(Value.integer) ?? .null }
        return AnnouncementPatchRequest(fields: fields)
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            try container.encode(value, forKey: Key(stringValue: key))
        }
    }
}
