import Foundation
import PetSpot
import PhotoPipeline

/// The manage page's form: the report form of the announcement's kind (``MissingReportForm`` or
/// ``FoundReportForm``: the same questions, rules and messages), filled in with what is stored,
/// with the version it was made from, and the report's photo shown as the one kept.
struct ManageForm<Report: ReportForm>: WebForm {
    var report: Report
    /// The revision the form was made from: a save over a later one is a conflict.
    var version: Int
    /// Whether ``Report/photo`` is the announcement's own photo (`false`: one chosen in this form
    /// and not saved yet).
    var photoIsStored: Bool

    /// The report form's questions; the photo's hint says what a file does here.
    var sections: [FormSection] {
        report.sections.map { section in
            var section = section
            section.inputs = section.inputs.map { input in
                guard input.name == "photo", report.photo != nil else { return input }
                var input = input
                input.hint = "Choose a file only to replace the photo shown."
                return input
            }
            return section
        }
    }
    var fields: FormFields { report.fields }
    var problems: [FormProblem] { report.problems }

    /// The form filled in with `announcement` as stored.
    init(_ announcement: StoredAnnouncement, photoSize: PixelSize?, now: Date, maxPhotoBytes: Int) {
        let photo = announcement.photoKey.map { Self.stored($0, size: photoSize, at: announcement.updatedAt) }
        report = Report(fields: Self.fields(of: announcement), photo: photo, dates: ReportDates(now: now), maxPhotoBytes: maxPhotoBytes)
        version = announcement.revision
        photoIsStored = photo != nil
    }

    init(report: Report, version: Int, photoIsStored: Bool) {
        self.report = report
        self.version = version
        self.photoIsStored = photoIsStored
    }

    /// The announcement's photo as the form's kept photo (no token: nothing to attach again).
    static func stored(_ key: String, size: PixelSize?, at date: Date) -> KeptPhoto {
        let upload = PendingUpload(tokenDigest: "", browserDigest: "", photoKey: key, width: size?.width ?? 320,
                                   height: size?.height ?? 240, createdAt: date)
        return KeptPhoto(token: "", upload: upload, place: nil)
    }

    /// The questions' values as the report form names them, from the stored announcement. Where
    /// the pet was reads as the place people see, its coordinates in the hidden fields, which
    /// count while that text is left as it is.
    static func fields(of announcement: StoredAnnouncement) -> FormFields {
        let request = announcement.request
        var fields = FormFields()
        fields.set("microchip_number", request.microchipNumber ?? "")
        fields.set("species", request.species.rawValue)
        fields.set("breed", request.breed ?? "")
        fields.set("sex", request.sex.rawValue)
        fields.set("age", request.approximateAge.map(String.init) ?? "")
        fields.set("pet_name", request.petName ?? "")
        fields.set("last_seen_date", request.lastSeenDate.description)
        let location = PetLocation(latitude: request.locationLatitude, longitude: request.locationLongitude)
        if location.isGiven {
            let latitude = ReportLocation.text(request.locationLatitude), longitude = ReportLocation.text(request.locationLongitude)
            let place = announcement.placeText ?? "\(latitude), \(longitude)"
            fields.set("where", place)
            fields.set(ReportField.latitude, latitude)
            fields.set(ReportField.longitude, longitude)
            fields.set(ReportField.whereResolved, place)
        } else {
            fields.set("where", "")
        }
        fields.set("description", request.description ?? "")
        fields.set("phone", request.phone)
        fields.set("email", request.email)
        fields.set("reward", request.reward ?? "")
        return fields
    }

    /// The report's photo, or the one chosen and not yet saved, above the file picker.
    func before(_ input: FormInput) -> HTML {
        guard input.name == "photo", let photo = report.photo else { return report.before(input) }
        let thumbnail = photo.thumbnail
        let caption: HTML = photoIsStored ? "The report's photo." : "The photo you chose. It is saved with the other changes."
        return """
            <div class="kept-photo"><img src="\(thumbnail.path)" width="\(thumbnail.width)" height="\(thumbnail.height)" alt="\(photoIsStored ? "The report's photo" : "The photo you chose")"><p>\(caption)</p></div>

            """
    }

    func after(_ input: FormInput) -> HTML { report.after(input) }
}
