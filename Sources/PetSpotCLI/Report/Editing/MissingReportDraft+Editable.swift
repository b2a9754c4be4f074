import PetSpot

extension MissingReportDraft: EditableDraft {
    /// 1 chip number · 2 photo · 3 description (species, breed, gender, age, date, location,
    /// description, the pet's name) · 4 contact (phone, email, reward).
    static func fields(on step: MissingReportStep) -> [FormField] {
        switch step {
        case .chipNumber: [.microchipNumber]
        case .photo: [.photo]
        case .description: [.species, .breed, .gender, .age, .lastSeenDate, .latitude, .longitude, .description, .petName]
        case .contact: [.phone, .email, .reward]
        }
    }

    /// The missing flow has no fields of its own.
    func extraText(_ field: FormField) -> String? { nil }

    /// The missing flow has no fields of its own.
    mutating func setExtraText(_ field: FormField, to text: String) {}

    /// The fields formatted for a summary.
    var presentation: ReportDraftPresentation { ReportDraftPresentation(self) }
}
