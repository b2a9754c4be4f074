import PetSpot

/// "I lost my pet": the seeds' missing flow on one page, its steps as sections — the chip
/// number, the photo (optional), the pet (breed required, sex male or female), the contact
/// details — read into ``MissingReportDraft`` with its rules.
struct MissingReportForm: ReportForm {
    static let kind = AnnouncementStatus.missing
    static let heading = "Report a missing pet"
    static let lede = "Tell people what your pet looks like and where it was last seen. Everything you enter here is published, except where your photo was taken."

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
            FormSection(title: "Chip number", inputs: [ReportInputs.microchip(found: false)]),
            FormSection(title: "Photo", inputs: [ReportInputs.photo(required: false, kept: photo != nil, maxBytes: maxPhotoBytes)]),
            FormSection(title: "Your pet", inputs: [
                ReportInputs.species, ReportInputs.breed(required: true), ReportInputs.sex(unknownAllowed: false),
                ReportInputs.age, ReportInputs.name(found: false),
                ReportInputs.date(found: false, today: dates.today, latest: dates.latest), ReportInputs.place(found: false),
                ReportInputs.description,
            ]),
            FormSection(title: "Your contact details", inputs: [ReportInputs.phone, ReportInputs.email, ReportInputs.reward(found: false)]),
        ]
    }

    static func draft(microchip: MicrochipNumber, photo: PhotoReference?, animal: AnimalDescriptionDetails,
                      contact: OwnerContactDetails) -> MissingReportDraft {
        MissingReportDraft(microchip: microchip, photo: photo, animal: animal, contact: contact)
    }
}
