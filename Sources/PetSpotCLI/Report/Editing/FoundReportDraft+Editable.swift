import PetSpot

extension FoundReportDraft: EditableDraft {
    /// 1 photo · 2 pet details (chip number, species, breed, gender, age, date, location,
    /// description, the pet's name if known) · 3 contact (phone, email, reward, caregiver phone, current address).
    static func fields(on step: FoundReportStep) -> [FormField] {
        switch step {
        case .photo: [.photo]
        case .petDetails:
            [.microchipNumber, .species, .breed, .gender, .age, .lastSeenDate, .latitude, .longitude, .description, .petName]
        case .contact: [.phone, .email, .reward, .caregiverPhone, .foundAddress]
        }
    }

    /// The caregiver phone or the current address.
    func extraText(_ field: FormField) -> String? {
        switch field {
        case .caregiverPhone: caregiverPhone
        case .foundAddress: foundAddress
        default: nil
        }
    }

    /// Sets the caregiver phone or the current address (cut to its cap).
    mutating func setExtraText(_ field: FormField, to text: String) {
        switch field {
        case .caregiverPhone: caregiverPhone = text
        case .foundAddress: foundAddress = text
        default: break
        }
    }

    /// The fields formatted for a summary.
    var presentation: ReportDraftPresentation { ReportDraftPresentation(self) }
}
