import Foundation
import PetSpot

/// `last_seen_date` as clients send it: the contract's `YYYY-MM-DD`, or an ISO 8601 instant.
///
/// The seeds' app writes its date picker's value with `ISO8601DateFormatter`: the local
/// midnight of the day the person picked, as a UTC instant (`2024-11-30T23:00:00Z` for
/// 1 December in Warsaw). The day meant is the calendar day of that instant where the pet was
/// last seen: the time zone of the announcement's coordinates (``ZoneLocator``), or UTC for an
/// announcement without a location. The future-date rule then applies to that day.
enum LastSeenDateIntake {
    /// The day an instant names at a place.
    static func day(of instant: Date, latitude: Double?, longitude: Double?, zones: ZoneLocator = .shared) -> LocalDate {
        guard let latitude, let longitude, PetLocation(latitude: latitude, longitude: longitude).isGiven,
              (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return LocalDate(date: instant, in: .gmt)
        }
        return LocalDate(date: instant, in: zones.timeZone(latitude: latitude, longitude: longitude))
    }

    /// An ISO 8601 instant with a zone designator (`Z` or `±hh:mm`), with or without fractional
    /// seconds; `nil` for anything else (a plain `YYYY-MM-DD` among them).
    static func instant(_ text: String) -> Date? {
        guard text.count > 10, text.count <= 40 else { return nil }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// Rewrites an instant in a JSON object's `last_seen_date` as the day it names at the
    /// object's coordinates (`location_latitude`/`location_longitude`, else `fallback`'s);
    /// anything else is left for the decoder to judge.
    static func normalize(_ object: inout [String: Any], fallback: PetLocation? = nil) {
        guard let text = object["last_seen_date"] as? String, let instant = instant(text) else { return }
        let latitude = (object["location_latitude"] as? NSNumber)?.doubleValue ?? fallback?.latitude
        let longitude = (object["location_longitude"] as? NSNumber)?.doubleValue ?? fallback?.longitude
        object["last_seen_date"] = day(of: instant, latitude: latitude, longitude: longitude).description
    }
}
