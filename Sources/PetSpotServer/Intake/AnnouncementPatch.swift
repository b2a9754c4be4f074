import Foundation
import PetSpot

/// A JSON merge patch (RFC 7396) of an announcement: the create request's fields, `pet_name`,
/// `status` and `closed_outcome`. The patched fields go through the create rules
/// (``CreateRequestIntake``); `null` clears an optional field and is 400 for a required one.
///
/// `status` closes (`CLOSED` with `closed_outcome` REUNITED or WITHDRAWN, any case) or reopens
/// (`MISSING`/`ACTIVE` or `FOUND`) the announcement as the kind it was filed as: a patch never
/// turns a missing report into a found one.
enum AnnouncementPatch {
    /// The create request's keys a patch may set.
    static let requestKeys: Set<String> = [
        "species", "sex", "last_seen_date", "location_latitude", "location_longitude", "email", "phone",
        "microchip_number", "description", "reward", "breed", "approximate_age", "pet_name",
    ]
    /// Keys a patch may not set to `null`.
    static let requiredKeys: Set<String> = [
        "species", "sex", "last_seen_date", "location_latitude", "location_longitude", "email", "phone", "status",
    ]

    /// `current` with the patch applied, its `updatedAt` set to `now`; the revision stays the
    /// one read (the store writes only over that revision).
    static func apply(_ body: Data, to current: StoredAnnouncement, now: Date) throws(APIFailure) -> StoredAnnouncement {
        let patch: [String: Any]
        do {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw APIFailure.malformed("The body must be a JSON object with the fields to change (a JSON merge patch).")
            }
            patch = object
        } catch let failure as APIFailure {
            throw failure
        } catch {
            throw .malformed("The body is not valid JSON. Send the fields to change as a JSON object.")
        }
        for key in patch.keys.sorted() where !requestKeys.contains(key) && key != "status" && key != "closed_outcome" {
            throw .malformed("\(key.prefix(60)) cannot be changed: a patch may set \((requestKeys.sorted() + ["status", "closed_outcome"]).joined(separator: ", ")).",
                             field: String(key.prefix(60)))
        }
        for key in patch.keys.sorted() where patch[key] is NSNull && requiredKeys.contains(key) {
            throw .malformed("\(key) must not be null: it is required.", field: key)
        }

        var changed = current
        changed.updatedAt = now
        if patch.keys.contains(where: requestKeys.contains) {
            changed.request = try patchedRequest(current.request, with: patch, now: now)
        }
        try applyStatus(patch, to: &changed, now: now)
        return changed
    }

    /// The request with the patch merged in, checked by the create rules.
    private static func patchedRequest(_ request: CreateAnnouncementRequest, with patch: [String: Any],
                                       now: Date) throws(APIFailure) -> CreateAnnouncementRequest {
        var merged: [String: Any]
        do {
            merged = try JSONSerialization.jsonObject(with: PetSpotJSON.encode(request)) as? [String: Any] ?? [:]
        } catch {
            throw .internalError
        }
        for (key, value) in patch where requestKeys.contains(key) {
            if value is NSNull { merged.removeValue(forKey: key) } else { merged[key] = value }
        }
        let body: Data
        do {
            body = try JSONSerialization.data(withJSONObject: merged)
        } catch {
            throw .malformed("The patch holds a value that is not JSON.")
        }
        // The future-date rule as at creation (see CreateRequestIntake).
        return try CreateRequestIntake.decode(body, today: .latestToday(now: now))
    }

    /// Closes the announcement as `outcome`: closed now, or, when it already was, closed since
    /// then with the new outcome.
    static func close(_ announcement: inout StoredAnnouncement, as outcome: ClosedOutcome, now: Date) {
        if !announcement.isClosed { announcement.closedAt = now }
        announcement.closedOutcome = outcome
    }

    /// Reopens the announcement as the kind it was filed as.
    static func reopen(_ announcement: inout StoredAnnouncement) {
        announcement.closedOutcome = nil
        announcement.closedAt = nil
    }

    private static func applyStatus(_ patch: [String: Any], to changed: inout StoredAnnouncement, now: Date) throws(APIFailure) {
        let outcomeValue = patch["closed_outcome"]
        var outcome: ClosedOutcome?
        if let outcomeValue, !(outcomeValue is NSNull) {
            guard let text = outcomeValue as? String, let parsed = ClosedOutcome(userInput: text) else {
                throw .malformed("closed_outcome is REUNITED or WITHDRAWN.", field: "closed_outcome")
            }
            outcome = parsed
        }
        guard let statusValue = patch["status"] else {
            if let outcome {
                guard changed.isClosed else {
                    throw .malformed("closed_outcome goes with \"status\": \"CLOSED\".", field: "closed_outcome")
                }
                changed.closedOutcome = outcome
            }
            return
        }
        guard let text = statusValue as? String else { throw .malformed("status has the wrong type: expected a string.", field: "status") }
        let kind = changed.request.status
        let status = text.trimmingCharacters(in: .whitespaces).uppercased()
        switch status {
        case "CLOSED":
            guard let outcome else {
                throw .malformed("Closing needs \"closed_outcome\": REUNITED (the pet is home) or WITHDRAWN.", field: "closed_outcome")
            }
            close(&changed, as: outcome, now: now)
        case "MISSING", "ACTIVE", "FOUND":
            let asked: AnnouncementStatus = status == "FOUND" ? .found : .missing
            guard asked == kind else {
                throw .malformed("This announcement was filed as \(kind.rawValue); it reopens as \(kind.rawValue), not \(asked.rawValue). "
                    + "Close it and file a new one for a \(asked == .found ? "found" : "missing") pet.", field: "status")
            }
            if outcome != nil { throw .malformed("closed_outcome goes with \"status\": \"CLOSED\".", field: "closed_outcome") }
            reopen(&changed)
        default:
            throw .malformed("status is \(kind.rawValue) (reopen) or CLOSED (with closed_outcome).", field: "status")
        }
    }
}
