import Foundation
import PetSpot

/// Turns the body of `POST /api/v1/announcements` into a valid request, or the 400 that names
/// the first bad field: malformed JSON, a missing key, a wrong type, an unknown enum value, then
/// the form rules in the contract's order.
enum CreateRequestIntake {
    /// The largest create body accepted (the longest valid one is under 2 KiB).
    static let maximumBodyBytes = 64 * 1024

    static func decode(_ body: Data, today: LocalDate) throws(APIFailure) -> CreateAnnouncementRequest {
        let request: CreateAnnouncementRequest
        do {
            guard var object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw APIFailure.malformed("The body must be a JSON object with the announcement's fields.")
            }
            try checkWholeNumber(object["approximate_age"], field: "approximate_age")
            var normalized = body
            if object["last_seen_date"] is String, LastSeenDateIntake.instant(object["last_seen_date"] as? String ?? "") != nil {
                LastSeenDateIntake.normalize(&object)
                normalized = try JSONSerialization.data(withJSONObject: object)
            }
            request = try PetSpotJSON.decode(CreateAnnouncementRequest.self, from: normalized)
        } catch let failure as APIFailure {
            throw failure
        } catch let error as DecodingError {
            throw failure(for: error)
        } catch {
            throw .malformed("The body is not valid JSON. Send the announcement as a JSON object (Content-Type: application/json).")
        }
        if let issue = request.validate(today: today).first {
            throw .validation(issue)
        }
        // The breed and the name are stored trimmed, and a blank one as none; the phone in its
        // normal form (see PhoneNumber).
        var trimmed = request
        trimmed.phone = PhoneNumber(request.phone).value
        trimmed.breed = request.breed?.nonBlankTrimmed
        trimmed.petName = request.petName?.nonBlankTrimmed
        return trimmed
    }

    /// JSONDecoder reports a fraction or a huge number for an `Int` without the key's name, so
    /// such a value is refused here, by name, first.
    private static func checkWholeNumber(_ value: Any?, field: String) throws(APIFailure) {
        guard let number = value as? NSNumber, !(value is NSNull) else { return }
        let double = number.doubleValue
        if double.rounded() != double || abs(double) > 1e15 {
            throw .malformed("\(field) has the wrong type: expected an integer.", field: field)
        }
    }

    /// The 400 for a decoding error, naming the key it is about.
    private static func failure(for error: DecodingError) -> APIFailure {
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath + [key]).first?.stringValue ?? key.stringValue
            return .malformed("\(field) is required.", field: field)
        case .typeMismatch(let type, let context):
            let field = context.codingPath.first?.stringValue
            return .malformed("\(field ?? "A value") has the wrong type: expected \(describe(type)).", field: field)
        case .valueNotFound(let type, let context):
            let field = context.codingPath.first?.stringValue
            return .malformed("\(field ?? "A value") must not be null: expected \(describe(type)).", field: field)
        case .dataCorrupted(let context):
            guard let field = context.codingPath.first?.stringValue else {
                return .malformed("The body is not valid JSON. Send the announcement as a JSON object.")
            }
            return .malformed("\(field) has a value the contract does not allow\(allowedValues(field)).", field: field)
        @unknown default:
            return .malformed("The body does not match the contract.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Double.Type, is Float.Type: "a number"
        case is Int.Type: "an integer"
        default: "\(type)"
        }
    }

    private static func allowedValues(_ field: String) -> String {
        switch field {
        case "species": ": one of " + Species.allCases.map(\.rawValue).joined(separator: ", ")
        case "sex": ": one of " + Gender.allCases.map(\.rawValue).joined(separator: ", ")
        case "status": ": one of " + AnnouncementStatus.allCases.map(\.rawValue).joined(separator: ", ")
        case "last_seen_date": ": a calendar date written YYYY-MM-DD, or an ISO 8601 instant such as 2024-11-30T23:00:00Z"
        default: ""
        }
    }
}
