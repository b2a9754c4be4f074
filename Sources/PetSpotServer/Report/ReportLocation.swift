import Foundation
import PetSpot

/// Where a report form says the pet was: the photo's own position when the person ticked "use
/// where the photo was taken", the coordinates the page's script (or an earlier send) found for
/// the text as it still stands, or the text itself — coordinates pasted from a map, or a place
/// name looked up in the gazetteer.
enum ReportLocation {
    struct Point: Sendable, Equatable {
        var latitude: Double
        var longitude: Double
        /// The place the name resolved to ("Mokotów, Poland"), for "where" to show.
        var label: String?
    }

    struct Problem: Error, Sendable, Equatable {
        var issue: ValidationIssue
    }

    /// The point `fields` name, or the problem to show beside "where".
    static func resolve(_ fields: FormFields, photo: KeptPhoto?, gazetteer: Gazetteer?) async throws -> Result<Point, Problem> {
        if fields.isChecked(ReportField.usePhotoPlace), let latitude = photo?.upload.latitude, let longitude = photo?.upload.longitude {
            return .success(Point(latitude: latitude, longitude: longitude, label: photo?.place))
        }
        let typed = fields.text("where")
        if fields[ReportField.whereResolved] == typed, !typed.isEmpty,
           let latitude = number(fields.text(ReportField.latitude)), let longitude = number(fields.text(ReportField.longitude)) {
            return .success(Point(latitude: latitude, longitude: longitude, label: nil))
        }
        let text = LocationText(typed)
        switch text {
        case .empty:
            return .failure(Problem(issue: FormRules.location(text)!))
        case .coordinates(let latitude, let longitude):
            return .success(Point(latitude: latitude, longitude: longitude, label: nil))
        case .placeName(let name):
            guard name.count <= 200, let gazetteer, let place = try await gazetteer.resolve(name) else {
                return .failure(Problem(issue: FormRules.unknownPlace(name)))
            }
            return .success(Point(latitude: place.latitude, longitude: place.longitude, label: place.label))
        }
    }

    /// A finite decimal number as the hidden coordinates carry it.
    static func number(_ text: String) -> Double? {
        guard text.utf8.count <= 32, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// Degrees to six decimals (about 10 cm), as the hidden fields and offers write them.
    static func text(_ degrees: Double) -> String {
        String(format: "%.6f", degrees).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }
}
