import PetSpot

/// "I found a pet": the seeds' found flow on one page — the photo (mandatory), the pet (sex may
/// be "not sure", breed optional, a chip number if one was read), the contact details — read into
/// ``FoundReportDraft`` with its rules. The seeds' caregiver phone and current address are not
/// asked: they are never sent, and a form asks nothing the announcement does not publish.
struct FoundReportForm: ReportForm {
    static let kind = AnnouncementStatus.found
    static let heading = "Report a found pet"
    static let lede = "Tell the owner what you found and where. Everything you enter here is published, except where your photo was taken."

    var fields: FormFields
    var problems: [FormProblem] = []
    var photo: KeptPhoto?
    let dates: ReportDates
    let maxPhotoBytes: Int

    init(fields: FormFields, photo: KeptPhoto?, dates: ReportDates, maxPhotoBytes: Int) {
        self.fields = fields
        self.photo = photo
        self.dates = dates
        self.maxPhotoBytes = maxPhotoBytes
    }

    var sections: [FormSection] {
        [
            FormSection(title: "Photo", inputs: [ReportInputs.photo(required: true, kept: photo != nil, maxBytes: maxPhotoBytes)]),
            FormSection(title: "The pet", inputs: [
                ReportInputs.species, ReportInputs.sex(unknownAllowed: true), ReportInputs.breed(required: false),
                ReportInputs.age, ReportInputs.name(found: true), ReportInputs.microchip(found: true),
                ReportInputs.date(found: true, today: dates.today, latest: dates.latest), ReportInputs.place(found: true),
                ReportInputs.description,
            ]),
            FormSection(title: "Your contact details", inputs: [ReportInputs.phone, ReportInputs.email, ReportInputs.reward(found: true)]),
        ]
    }

    static func draft(microchip: MicrochipNumber, photo: PhotoReference?, animal: AnimalDescriptionDetails,
                      contact: OwnerContactDetails) -> FoundReportDraft {
        FoundReportDraft(photo: photo, microchip: microchip, animal: animal, contact: contact)
    }
}
