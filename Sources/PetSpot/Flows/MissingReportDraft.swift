/// A report of a missing pet, filled in over four steps:
/// 1 chip number → 2 photo (optional) → 3 description → 4 contact.
///
/// `Codable`, so another module can persist a half-filled draft and resume it.
/// Breed/race is required here. Sent with status MISSING.
public struct MissingReportDraft: ReportDraft {
    /// The step the person is on.
    public var step: MissingReportStep
    /// Step 1: the microchip number; empty when unknown. Always valid by construction.
    public var microchip: MicrochipNumber
    /// Step 2: the photo, optional. Uploaded after the announcement is created.
    public var photo: PhotoReference?
    /// Step 3: what the animal looks like, where and when it was last seen.
    public var animal: AnimalDescriptionDetails
    /// Step 4: how to reach the owner, and the reward.
    public var contact: OwnerContactDetails

    /// Creates a draft, on the first step unless told otherwise.
    public init(
        step: MissingReportStep = .chipNumber, microchip: MicrochipNumber = MicrochipNumber(""),
        photo: PhotoReference? = nil, animal: AnimalDescriptionDetails = AnimalDescriptionDetails(),
        contact: OwnerContactDetails = OwnerContactDetails()
    ) {
        self.step = step
        self.microchip = microchip
        self.photo = photo
        self.animal = animal
        self.contact = contact
    }

    /// The problems of one step; the chip number and photo steps are always valid.
    public func validate(step: MissingReportStep, today: LocalDate) -> [ValidationIssue] {
        switch step {
        case .chipNumber, .photo: []
        case .description: animal.validate(today: today, breedRequired: true)
        case .contact: contact.validate()
        }
    }

    /// The MISSING request, once every step is valid.
    /// - Throws: ``ReportDraftError/incomplete(_:)`` with every problem of every step.
    public func makeRequest(today: LocalDate) throws(ReportDraftError) -> CreateAnnouncementRequest {
        try .checked(
            issues: validate(today: today), status: .missing,
            microchip: microchip, animal: animal, contact: contact)
    }
}
