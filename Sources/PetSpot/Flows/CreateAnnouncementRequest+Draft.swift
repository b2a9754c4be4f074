extension CreateAnnouncementRequest {
    /// Builds the request from a draft's parts, sanitising phone, email, microchip and
    /// free text; `nil` when a required part is missing (validation reports why).
    public init?(
        status: AnnouncementStatus, microchip: MicrochipNumber,
        animal: AnimalDescriptionDetails, contact: OwnerContactDetails
    ) {
        guard let species = animal.species, let gender = animal.gender,
              let date = animal.lastSeenDate,
              let latitude = animal.latitude, let longitude = animal.longitude
        else { return nil }
        self.init(
            species: species, sex: gender, lastSeenDate: date,
            locationLatitude: latitude, locationLongitude: longitude,
            email: contact.trimmedEmail, phone: contact.sanitizedPhone, status: status,
            microchipNumber: microchip.isEmpty ? nil : microchip.digits,
            description: animal.descriptionToSend, reward: contact.rewardToSend,
            breed: animal.breedToSend, approximateAge: animal.age, petName: animal.nameToSend)
    }

    /// Builds the request once `issues` is empty.
    /// - Throws: ``ReportDraftError/incomplete(_:)`` when there are issues.
    static func checked(
        issues: [ValidationIssue], status: AnnouncementStatus, microchip: MicrochipNumber,
        animal: AnimalDescriptionDetails, contact: OwnerContactDetails
    ) throws(ReportDraftError) -> CreateAnnouncementRequest {
        guard issues.isEmpty,
              let request = CreateAnnouncementRequest(
                status: status, microchip: microchip, animal: animal, contact: contact)
        else { throw .incomplete(issues) }
        return request
    }
}
