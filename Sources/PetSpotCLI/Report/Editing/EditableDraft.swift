import Foundation
import PetSpot

/// A flow's draft as the CLI edits it: which fields each step asks, and setting any field from
/// the text a person typed (a flag value or an answer).
///
/// Both flows share the chip number, photo, animal and contact parts; the found flow adds the
/// caregiver phone and the current address (see ``extraText(_:)``).
protocol EditableDraft: FlowDraft {
    /// The fields a step asks, in the order a form shows them.
    static func fields(on step: Step) -> [FormField]

    /// The photo, the flow's pinned cache entry.
    var photo: PhotoReference? { get set }
    /// The microchip number.
    var microchip: MicrochipNumber { get set }
    /// What the animal looks like, where and when.
    var animal: AnimalDescriptionDetails { get set }
    /// How to reach the reporter.
    var contact: OwnerContactDetails { get set }

    /// The value of a field only this flow has (caregiver phone, address); `nil` for others.
    func extraText(_ field: FormField) -> String?
    /// Sets a field only this flow has; other fields are ignored.
    mutating func setExtraText(_ field: FormField, to text: String)

    /// Every field formatted for a summary.
    var presentation: ReportDraftPresentation { get }
}

extension EditableDraft {
    /// Every field this flow asks, in step order.
    static var allFields: [FormField] { Step.allCases.flatMap(fields(on:)) }

    /// The step that asks `field`, or `nil` when this flow has no such field.
    static func step(of field: FormField) -> Step? {
        Step.allCases.first { fields(on: $0).contains(field) }
    }

    /// The fields an empty draft is refused for: the required ones, read off the rules
    /// themselves so the two can never disagree.
    static var requiredFields: Set<FormField> {
        Set(Self().validate(today: .today()).map(\.field))
    }

    /// Whether the flow accepts the field left empty.
    static func isOptional(_ field: FormField) -> Bool { !requiredFields.contains(field) }

    /// The problems of the step that asks `field`, restricted to that field.
    func issues(of field: FormField, today: LocalDate) -> [ValidationIssue] {
        guard let step = Self.step(of: field) else { return [] }
        return validate(step: step, today: today).filter { $0.field == field }
    }

    /// The fields of `step` that have a problem, in the step's order.
    func fieldsWithIssues(on step: Step, today: LocalDate) -> [FormField] {
        let fields = Set(validate(step: step, today: today).map(\.field))
        return Self.fields(on: step).filter(fields.contains)
    }

    /// The current value of a field as a prompt shows it in brackets, or `nil` when empty.
    func displayValue(of field: FormField) -> String? {
        let text: String? = switch field {
        case .microchipNumber: microchip.formatted
        case .petName: animal.name
        case .photo: photo.map { "\($0.mimeType), \($0.width) × \($0.height)" }
        case .species: animal.species?.rawValue.lowercased()
        case .breed: animal.breed
        case .gender: animal.gender?.rawValue.lowercased()
        case .age: animal.age.map(String.init)
        case .lastSeenDate: animal.lastSeenDate?.description
        case .latitude: animal.latitude.map { "\($0)" }
        case .longitude: animal.longitude.map { "\($0)" }
        case .description: animal.description
        case .phone: contact.phone
        case .email: contact.email
        case .reward: contact.reward
        case .caregiverPhone, .foundAddress: extraText(field)
        }
        return text.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Text over either of `limit`'s caps is refused, never cut: the person sees how much to shorten.
    private static func check(_ value: String, against limit: TextLimit) throws(AnswerError) {
        guard limit.problem(with: value) != nil else { return }
        if value.count > limit.maximumCharacters { throw .tooLong(limit, count: value.count) }
        throw .tooManyBytes(limit, bytes: value.utf8.count)
    }

    /// Sets a field from text, an empty text clearing it.
    ///
    /// Text that reads as the field's kind of value is kept even when a rule refuses it, so
    /// validation can say what is wrong. Free text is trimmed; text over its cap is refused with its
    /// length (never cut to fit).
    /// The photo is not set here (it goes through the cache, see ``PhotoAttaching``); an empty
    /// text clears it.
    /// - Parameters:
    ///   - field: The field to set.
    ///   - text: What was typed.
    ///   - today: What `today` and `yesterday` mean for a date.
    /// - Returns: A note to show when the value was changed on the way in (cut, digits dropped).
    /// - Throws: ``AnswerError`` when the text is not a value of the field's kind; nothing changes then.
    @discardableResult
    mutating func set(_ field: FormField, to text: String, today: LocalDate) throws(AnswerError) -> String? {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let clear = value.isEmpty
        switch field {
        case .microchipNumber:
            // Refused, never cut to fit: a wrong chip number is worse than none.
            if let issue = FormRules.microchip(value) { throw .notAChipNumber(value, issue.message) }
            microchip = MicrochipNumber(value)
        case .petName:
            try Self.check(value, against: .petName)
            animal.name = clear ? nil : value
        case .photo:
            if clear { photo = nil }
        case .species:
            animal.species = clear ? nil : try FieldParsing.species(value)
        case .breed:
            try Self.check(value, against: .breed)
            animal.breed = value
        case .gender:
            animal.gender = clear ? nil : try FieldParsing.gender(value)
        case .age:
            animal.age = clear ? nil : try FieldParsing.wholeNumber(value, for: field)
        case .lastSeenDate:
            animal.lastSeenDate = clear ? nil : try FieldParsing.date(value, today: today)
        case .latitude:
            animal.latitude = clear ? nil : try FieldParsing.degrees(value, for: field)
        case .longitude:
            animal.longitude = clear ? nil : try FieldParsing.degrees(value, for: field)
        case .description:
            try Self.check(value, against: .description)
            animal.description = value
        case .phone:
            contact.phone = value
        case .email:
            contact.email = value
        case .reward:
            try Self.check(value, against: .reward)
            contact.reward = value
        case .caregiverPhone:
            setExtraText(field, to: value)
        case .foundAddress:
            try Self.check(value, against: .foundAddress)
            setExtraText(field, to: value)
        }
        return nil
    }
}
