import Foundation
import PetSpot

/// The photo a report form holds from an earlier send (or from its script): prepared, stored,
/// shown as a thumbnail and attached by reference, never sent again.
struct KeptPhoto: Sendable {
    /// The token the form carries (`photo_token`).
    var token: String
    var upload: PendingUpload
    /// Where the photo says it was taken, in words ("1.2 km from Mokotów, Warsaw, Poland"), to
    /// offer for the location; `nil` when it carries no GPS position.
    var place: String?

    /// The thumbnail's path and size: the photo's 320 px size when it is wider, else the photo.
    var thumbnail: (path: String, width: Int, height: Int) {
        let width = min(320, upload.width)
        let height = max(1, upload.height * width / max(1, upload.width))
        let path = upload.width > 320 ? "/photos/\(PhotoKey.digest(of: upload.photoKey))/w320.jpg" : "/photos/\(upload.photoKey)"
        return (path, width, height)
    }

    /// "The photo was taken 1.2 km from Mokotów, Warsaw, Poland — use it?"
    var offer: String? {
        guard let latitude = upload.latitude, let longitude = upload.longitude else { return nil }
        let words = place.map { $0.hasPrefix("In ") ? "in " + $0.dropFirst(3) : $0 }
            ?? "at \(ReportLocation.text(latitude)), \(ReportLocation.text(longitude))"
        return "The photo was taken \(words) — use it?"
    }
}

/// The days a report form's date question works with: today on the server's reckoning (the
/// default before the page's script puts in the browser's own today) and the latest today
/// anywhere, which a date may never pass.
struct ReportDates: Sendable {
    var today: LocalDate
    var latest: LocalDate

    init(now: Date) {
        today = LocalDate.today(in: .gmt, now: now)
        latest = LocalDate.latestToday(now: now)
    }
}

/// What the missing and found report forms share: how a sent form is read into the domain's
/// draft with the domain's rules (``FormRules``, the drafts' `validate`, and the wire's rules on
/// the finished request), and how the photo and location questions draw their extras.
protocol ReportForm: WebForm {
    associatedtype Draft: ReportDraft

    /// MISSING or FOUND.
    static var kind: AnnouncementStatus { get }
    /// The page's heading, e.g. "Report a missing pet".
    static var heading: String { get }
    /// The sentence under the heading.
    static var lede: String { get }

    var fields: FormFields { get set }
    var problems: [FormProblem] { get set }
    var photo: KeptPhoto? { get set }
    var dates: ReportDates { get }
    var maxPhotoBytes: Int { get }

    init(fields: FormFields, photo: KeptPhoto?, dates: ReportDates, maxPhotoBytes: Int)

    /// The flow's draft from the values read.
    static func draft(microchip: MicrochipNumber, photo: PhotoReference?, animal: AnimalDescriptionDetails,
                      contact: OwnerContactDetails) -> Draft
}

/// The form's own fields, beside the questions.
enum ReportField {
    static let idempotencyKey = "idempotency_key"
    static let photoToken = "photo_token"
    static let removePhoto = "remove_photo"
    static let latitude = "latitude"
    static let longitude = "longitude"
    /// The "where" text the hidden coordinates were found for; they count only while it is unchanged.
    static let whereResolved = "where_resolved"
    static let usePhotoPlace = "use_photo_place"
    /// The date the form was shown with; sent back unchanged it means "today" where the pet is.
    static let dateDefault = "date_default"
}

extension ReportForm {
    /// `/report/missing` or `/report/found`.
    static var path: String { "/report/\(kind == .missing ? "missing" : "found")" }

    /// A new, empty form: the date today, nothing else filled in.
    static func blank(dates: ReportDates, maxPhotoBytes: Int) -> Self {
        var fields = FormFields()
        fields.set("last_seen_date", dates.today.description)
        fields.set(ReportField.dateDefault, dates.today.description)
        return Self(fields: fields, photo: nil, dates: dates, maxPhotoBytes: maxPhotoBytes)
    }

    /// Reads the sent values into the flow's request with the domain's rules.
    /// - Parameters:
    ///   - location: the coordinates "where" came to, or the problem with it.
    /// - Returns: the request when every rule holds, and every problem (none with a request).
    func read(location: Result<ReportLocation.Point, ReportLocation.Problem>, now: Date) -> (CreateAnnouncementRequest?, [ValidationIssue]) {
        var typed: [ValidationIssue] = []
        let chipText = fields.text("microchip_number")
        if let issue = FormRules.microchip(chipText) { typed.append(issue) }
        let (age, ageIssue) = FormRules.typedAge(fields.text("age"))
        let typedDate = FormRules.typedDate(fields.text("last_seen_date"))
        var date = typedDate.date
        typed += [ageIssue, typedDate.issue].compactMap(\.self)
        let point = try? location.get()
        if case .failure(let problem) = location { typed.append(problem.issue) }
        // Today where the pet is: a date the form was shown with and sent back unchanged is today there.
        let today = point.map { LocalDate.today(in: ZoneLocator.shared.timeZone(latitude: $0.latitude, longitude: $0.longitude), now: now) }
            ?? LocalDate.latestToday(now: now)
        if let shown = date, shown.description == fields[ReportField.dateDefault], shown > today { date = today }

        let animal = AnimalDescriptionDetails(
            species: Species(rawValue: fields.text("species")), breed: fields.text("breed"), gender: Gender(rawValue: fields.text("sex")),
            age: age, lastSeenDate: date, latitude: point?.latitude, longitude: point?.longitude,
            description: fields.text("description"), name: fields.text("pet_name"))
        let contact = OwnerContactDetails(phone: fields.text("phone"), email: fields.text("email"), reward: fields.text("reward"))
        let reference = photo.map {
            PhotoReference(cacheKey: $0.upload.photoKey, path: "", mimeType: PhotoKey.mimeType(of: $0.upload.photoKey),
                           byteCount: 0, width: $0.upload.width, height: $0.upload.height)
        }
        let draft = Self.draft(microchip: MicrochipNumber(chipText), photo: reference, animal: animal, contact: contact)
        // A field whose text could not be read has its own message: the draft's "missing" for it is not repeated.
        let unread = Set(typed.map(\.field)).union(point == nil ? [.latitude, .longitude] : [])
        let issues = typed + draft.validate(today: today).filter { !unread.contains($0.field) }
        guard issues.isEmpty, let request = try? draft.makeRequest(today: today) else { return (nil, issues) }
        // The wire's rules too (control characters, the contract's caps): what the API would refuse
        // is never stored from a form either.
        let wire = request.validate(today: LocalDate.latestToday(now: now))
        return wire.isEmpty ? (request, []) : (nil, wire)
    }

    /// The kept photo's thumbnail (before the file picker).
    func before(_ input: FormInput) -> HTML {
        guard input.name == "photo", let photo else { return .empty }
        let thumbnail = photo.thumbnail
        return """
            <div class="kept-photo"><img src="\(thumbnail.path)" width="\(thumbnail.width)" height="\(thumbnail.height)" alt="The photo you added"><p>Sent with this form earlier: it is not sent again.</p></div>

            """
    }

    /// The photo's progress and status lines for the script, and the remove box; the location's
    /// suggestions, "Use my location" and the photo's place on offer.
    func after(_ input: FormInput) -> HTML {
        switch input.name {
        case "photo":
            let remove: HTML = photo != nil && Self.kind == .missing
                ? "<div class=\"check\"><input type=\"checkbox\" id=\"remove_photo\" name=\"remove_photo\" value=\"1\"><label for=\"remove_photo\">Remove this photo</label></div>\n"
                : .empty
            return "\(remove)<progress class=\"progress\" id=\"photo-progress\" max=\"100\" value=\"0\" hidden>Sending the photo</progress>\n<p class=\"hint\" id=\"photo-status\" aria-live=\"polite\"></p>\n"
        case "where":
            var html: HTML = "<datalist id=\"where-suggestions\"></datalist>\n<p class=\"actions\"><button type=\"button\" class=\"button secondary js-only\" id=\"locate\">Use my location</button><span class=\"hint\" id=\"where-status\" aria-live=\"polite\"></span></p>\n"
            if let offer = photo?.offer {
                html = "\(html)<div class=\"offer\"><p>\(offer)</p><div class=\"check\"><input type=\"checkbox\" id=\"use_photo_place\" name=\"use_photo_place\" value=\"1\"\(fields.isChecked(ReportField.usePhotoPlace) ? " checked" as HTML : "")><label for=\"use_photo_place\">Use where the photo was taken</label></div></div>\n"
            }
            return html
        default:
            return .empty
        }
    }
}
