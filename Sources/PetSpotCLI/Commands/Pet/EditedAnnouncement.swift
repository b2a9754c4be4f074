import PetSpot

/// A posted announcement as the form of its kind holds it, so `pet edit` sets fields with the
/// same parsing, rules and messages as `report missing|found`, and sends only what changed.
enum EditedAnnouncement {
    case missing(MissingReportDraft)
    case found(FoundReportDraft)

    /// The form filled with what the server shows its owner.
    init(_ details: PetDetails) {
        let animal = AnimalDescriptionDetails(
            species: details.species, breed: details.breed ?? "", gender: details.gender, age: details.ageInYears,
            lastSeenDate: details.lastSeenDate, latitude: details.coordinates?.latitude ?? 0,
            longitude: details.coordinates?.longitude ?? 0, description: details.description,
            name: details.petName == details.species.displayName ? nil : details.petName)
        let contact = OwnerContactDetails(phone: details.phone, email: details.email ?? "", reward: details.reward ?? "")
        let microchip = MicrochipNumber(details.microchipNumber ?? "")
        self = details.isFoundReport
            ? .found(FoundReportDraft(microchip: microchip, animal: animal, contact: contact))
            : .missing(MissingReportDraft(microchip: microchip, animal: animal, contact: contact))
    }

    /// Sets a field from text, as the report's flag does.
    mutating func set(_ field: FormField, to text: String, today: LocalDate) throws(AnswerError) {
        switch self {
        case .missing(var draft):
            try draft.set(field, to: text, today: today)
            self = .missing(draft)
        case .found(var draft):
            try draft.set(field, to: text, today: today)
            self = .found(draft)
        }
    }

    /// The form's problems, the photo aside (it is not changed here).
    func issues(today: LocalDate) -> [ValidationIssue] {
        let all = switch self {
        case .missing(let draft): draft.validate(today: today)
        case .found(let draft): draft.validate(today: today)
        }
        return all.filter { $0.field != .photo }
    }

    /// The create request the form amounts to, sanitised as at submit.
    var request: CreateAnnouncementRequest? {
        switch self {
        case .missing(let draft):
            CreateAnnouncementRequest(status: .missing, microchip: draft.microchip, animal: draft.animal, contact: draft.contact)
        case .found(let draft):
            CreateAnnouncementRequest(status: .found, microchip: draft.microchip, animal: draft.animal, contact: draft.contact)
        }
    }

    /// The fields that differ from `before`, as a merge patch; `nil` when a required part is gone.
    func patch(from before: EditedAnnouncement) -> AnnouncementPatchRequest? {
        guard let old = before.request, let new = request else { return nil }
        return AnnouncementPatchRequest.changes(from: old, to: new)
    }
}
