extension CreateAnnouncementRequest {
    /// Every way the request breaks the contract's rules, each tied to its field (whose
    /// ``FormField/wireKey`` names the JSON key), for a server's 400 response.
    ///
    /// The same rules and messages as the forms, except that the wire allows `sex` UNKNOWN and
    /// only checks the microchip number rather than sanitising it.
    /// - Parameter today: The latest day the date may be; a server that does not know the
    ///   reporter's time zone passes ``LocalDate/latestToday(now:)``.
    /// - Returns: One issue per invalid field; empty when the request is valid.
    public func validate(today: LocalDate) -> [ValidationIssue] {
        controlCharacterIssues + [
            FormRules.lastSeenDate(lastSeenDate, today: today),
            FormRules.latitude(locationLatitude),
            FormRules.longitude(locationLongitude),
            FormRules.email(email),
            FormRules.phone(phone),
            microchipIssue,
            TextLimit.description.validate(description),
            TextLimit.reward.validate(reward),
            TextLimit.breed.validate(breed),
            TextLimit.petName.validate(petName),
            FormRules.age(approximateAge),
        ].compactMap(\.self)
    }

    /// Text that no screen can show and no database should hold: control characters (NUL
    /// among them, which PostgreSQL's text refuses), except tab and line breaks in the
    /// free-text fields. One issue per field, before the field's own rules.
    private var controlCharacterIssues: [ValidationIssue] {
        let lines: Set<Unicode.Scalar> = ["\t", "\n", "\r"]
        let fields: [(FormField, String?, Bool)] = [
            (.email, email, false), (.phone, phone, false), (.microchipNumber, microchipNumber, false),
            (.description, description, true), (.reward, reward, true), (.breed, breed, false),
            (.petName, petName, false),
        ]
        return fields.compactMap { field, text, allowsLines in
            guard let text, text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control && !(allowsLines && lines.contains($0))
            }) else { return nil }
            return ValidationIssue(field: field, message: ValidationMessage.controlCharacters)
        }
    }

    private var microchipIssue: ValidationIssue? {
        guard let microchipNumber else { return nil }
        if microchipNumber.isEmpty || !microchipNumber.allSatisfy(\.isASCIIDigit) {
            return ValidationIssue(field: .microchipNumber, message: ValidationMessage.microchipDigitsOnly)
        }
        if microchipNumber.count > MicrochipNumber.maximumDigits {
            return ValidationIssue(field: .microchipNumber, message: ValidationMessage.microchipTooLong)
        }
        return nil
    }
}
