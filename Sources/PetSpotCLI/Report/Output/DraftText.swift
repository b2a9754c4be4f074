import PetSpot

/// A draft as people read it: a summary of its fields and the state of each step.
enum DraftText {
    /// One line per field, labels aligned, the location on one line:
    /// ```
    ///   Report:            MISSING
    ///   Microchip number:  12345-67890-12345
    /// ```
    static func summary<Draft: EditableDraft>(_ draft: Draft) -> String {
        let shown = draft.presentation
        var rows = [("Report", shown.status)]
        // The name is optional and asked by no step: shown when given (`--name`).
        if let name = shown.name { rows.append((FormField.petName.label, name)) }
        for field in Draft.allFields {
            switch field {
            case .latitude: rows.append(("Location", shown.location))
            case .longitude: continue
            case .lastSeenDate: rows.append((Draft.flow == .found ? "Date found" : "Last seen", shown.lastSeenDate))
            case .caregiverPhone, .foundAddress:
                // The specs keep these off the announcement: say so, so nobody thinks they were sent.
                rows.append((field.label, value(of: field, in: shown) + "  " + localOnlyNote))
            default: rows.append((field.label, value(of: field, in: shown)))
            }
        }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { label, value in
            "  " + (label + ":").padding(toLength: width + 2, withPad: " ", startingAt: 0) + value
        }.joined(separator: "\n")
    }

    /// After the found flow's caregiver phone and address, which are never sent.
    static let localOnlyNote = "(stays on this machine, not sent)"

    /// What a found draft holds that is never sent: "the caregiver's phone", "the address where
    /// the animal is" (only those given).
    static func keptLocally(_ draft: FoundReportDraft) -> [String] {
        [draft.caregiverPhone.nonBlankTrimmed.map { _ in "the caregiver's phone" },
         draft.foundAddress.nonBlankTrimmed.map { _ in "the address where the animal is" }].compactMap { $0 }
    }

    /// For the submit summary of a found-pet report: `nil` when nothing was kept back.
    static func localOnlySentence(_ kept: [String]) -> String? {
        guard !kept.isEmpty else { return nil }
        return "Kept on this computer, never sent: \(kept.joined(separator: " and ")) "
            + "(\(kept.count == 1 ? "it was" : "they were") for your own record; the announcement gives your phone and email)."
    }

    /// Each step with a mark, and every problem under its step with the flag that fixes it:
    /// ```
    ///   ✓ Step 1 of 4 · Chip number
    ///   ✗ Step 3 of 4 · Description
    ///       Breed/race: Please enter the animal's breed/race (--breed)
    /// ```
    static func steps<Draft: EditableDraft>(_ draft: Draft, today: LocalDate) -> String {
        Draft.Step.allCases.map { step in
            let issues = draft.validate(step: step, today: today)
            let header = "  \(issues.isEmpty ? "✓" : "✗") \(step.progressLabel)"
            return ([header] + issues.map { "      \(line(for: $0))" }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// What to do with a complete draft while PetSpot has no submit command.
    static func notSubmittableYet(_ flow: ReportFlow) -> String {
        "Send it with `petspot report submit --flow \(flow.rawValue)`."
    }

    /// "Phone: Enter at least 7 digits (--phone)".
    static func line(for issue: ValidationIssue) -> String {
        "\(issue) (\(ReportFlag.name(of: issue.field)))"
    }

    /// The closing sentence: complete (and what to do with it), or how many problems are left
    /// and how to fill them in.
    static func verdict<Draft: EditableDraft>(_ draft: Draft, today: LocalDate) -> String {
        let count = draft.validate(today: today).count
        let flow = Draft.flow
        guard count > 0 else { return "The \(flow.reportName) is complete: every step is valid. " + notSubmittableYet(flow) }
        return "\(count) problem\(count == 1 ? "" : "s") left. Fill \(count == 1 ? "it" : "them") in with the flags shown, "
            + "or run `petspot report \(flow.rawValue)` on a terminal to be asked; "
            + "`petspot report validate --flow \(flow.rawValue)` checks the draft."
    }

    private static func value(of field: FormField, in shown: ReportDraftPresentation) -> String {
        switch field {
        case .microchipNumber: shown.microchipNumber
        case .petName: shown.name ?? PetDetailsPresentation.placeholder
        case .photo: shown.photo
        case .species: shown.species
        case .breed: shown.breed
        case .gender: shown.gender
        case .age: shown.age
        case .lastSeenDate: shown.lastSeenDate
        case .latitude, .longitude: shown.location
        case .description: shown.description
        case .phone: shown.phone
        case .email: shown.email
        case .reward: shown.reward
        case .caregiverPhone: shown.caregiverPhone ?? PetDetailsPresentation.placeholder
        case .foundAddress: shown.foundAddress ?? PetDetailsPresentation.placeholder
        }
    }
}
