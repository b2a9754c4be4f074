/// A report of a found pet, filled in over three steps:
/// 1 photo (mandatory) → 2 pet details → 3 contact, caregiver phone and current address.
///
/// `Codable`, so another module can persist a half-filled draft and resume it.
/// Breed/race is optional here. Sent with status FOUND; the caregiver phone and the current
/// address stay with the finder and are never part of the request.
public struct FoundReportDraft: ReportDraft {
    /// The step the person is on.
    public var step: FoundReportStep
    /// Step 1: the photo, mandatory. Uploaded after the announcement is created.
    public var photo: PhotoReference?
    /// Step 2: the microchip number, if a vet or shelter read one; empty otherwise.
    public var microchip: MicrochipNumber
    /// Step 2: what the animal looks like, where and when it was found.
    public var animal: AnimalDescriptionDetails
    /// Step 3: how to reach the finder.
    public var contact: OwnerContactDetails
    /// Step 3: the phone of whoever looks after the pet now; optional, never sent.
    public var caregiverPhone: String
    /// Step 3: where the pet is now; never sent. Assigning truncates to 500 characters.
    public var foundAddress: String {
        didSet { foundAddress = TextLimit.foundAddress.truncating(foundAddress) }
    }

    /// Creates a draft, on the first step unless told otherwise. Values are kept as given.
    public init(
        step: FoundReportStep = .photo, photo: PhotoReference? = nil,
        microchip: MicrochipNumber = MicrochipNumber(""),
        animal: AnimalDescriptionDetails = AnimalDescriptionDetails(),
        contact: OwnerContactDetails = OwnerContactDetails(),
        caregiverPhone: String = "", foundAddress: String = ""
    ) {
        self.step = step
        self.photo = photo
        self.microchip = microchip
        self.animal = animal
        self.contact = contact
        self.caregiverPhone = caregiverPhone
        self.foundAddress = foundAddress
    }

    /// The problems of one step.
    public func validate(step: FoundReportStep, today: LocalDate) -> [ValidationIssue] {
        switch step {
        case .photo:
            [FormRules.requiredPhoto(photo)].compactMap(\.self)
        case .petDetails:
            animal.validate(today: today, breedRequired: false, sexUnknownAllowed: true)
        case .contact:
            contact.validate() + [
                caregiverPhone.nonBlankTrimmed == nil
                    ? nil : FormRules.phone(caregiverPhone, field: .caregiverPhone),
                TextLimit.foundAddress.validate(foundAddress),
            ].compactMap(\.self)
        }
    }

    /// The FOUND request, once every step is valid. Caregiver phone and address are left out.
    /// - Throws: ``ReportDraftError/incomplete(_:)`` with every problem of every step.
    public func makeRequest(today: LocalDate) throws(ReportDraftError) -> CreateAnnouncementRequest {
        try .checked(
            issues: validate(today: today), status: .found,
            microchip: microchip, animal: animal, contact: contact)
    }
}
