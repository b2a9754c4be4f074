import PetSpot

/// The questions of the report forms, as the seeds' flows ask them, with the labels, hints,
/// keyboards and autofill each needs. The names are the form's field names.
enum ReportInputs {
    /// The photo types a phone gives and the pipeline takes; naming HEIC lets an iPhone send its
    /// original instead of a converted copy.
    static let photoTypes = "image/jpeg,image/png,image/webp,image/heic,image/heif,image/avif,.heic,.heif"

    static func microchip(found: Bool) -> FormInput {
        FormInput(name: "microchip_number", label: "Microchip number",
                  hint: found ? "If a vet or shelter read a chip: 15 digits (older chips have 9 or 10)."
                      : "15 digits, on the vet's records or the pet's passport (older chips have 9 or 10).",
                  kind: .input(type: "text"), optional: true, autocomplete: "off", inputMode: "numeric",
                  spellcheck: false, short: false, fields: [.microchipNumber])
    }

    static func photo(required: Bool, kept: Bool, maxBytes: Int) -> FormInput {
        return FormInput(name: "photo", label: kept ? "Change photo" : "Photo",
                         hint: kept ? "Your photo is kept with the form. Choose another file only to change it."
                             : "JPEG, HEIC, PNG or WebP, up to \(PhotoRefusal.megabytes(maxBytes)). The place it was taken is never published.",
                         kind: .file(accept: photoTypes), optional: kept || !required, fields: [.photo])
    }

    static let species = FormInput(name: "species", label: "Species", hint: nil,
                                   kind: .radios(Species.allCases.map { .init(value: $0.rawValue, label: $0.displayName) }),
                                   fields: [.species])

    static func breed(required: Bool) -> FormInput {
        FormInput(name: "breed", label: "Breed or race", hint: "For example Labrador, tabby, or mixed breed.",
                  kind: .input(type: "text"), optional: !required, autocomplete: "off",
                  maxLength: TextLimit.breed.maximumCharacters, fields: [.breed])
    }

    static func sex(unknownAllowed: Bool) -> FormInput {
        var choices: [FormInput.Choice] = [.init(value: Gender.male.rawValue, label: "Male"), .init(value: Gender.female.rawValue, label: "Female")]
        if unknownAllowed { choices.append(.init(value: Gender.unknown.rawValue, label: "Not sure")) }
        return FormInput(name: "sex", label: "Sex", hint: nil, kind: .radios(choices), fields: [.gender])
    }

    static let age = FormInput(name: "age", label: "Age in years", hint: nil, kind: .input(type: "text"), optional: true,
                               autocomplete: "off", inputMode: "numeric", maxLength: 3, spellcheck: false, short: true, fields: [.age])

    static func name(found: Bool) -> FormInput {
        FormInput(name: "pet_name", label: found ? "Name, if it has a tag" : "Name", hint: nil, kind: .input(type: "text"),
                  optional: true, autocomplete: "off", maxLength: TextLimit.petName.maximumCharacters, spellcheck: false, fields: [.petName])
    }

    static func date(found: Bool, today: LocalDate, latest: LocalDate) -> FormInput {
        FormInput(name: "last_seen_date", label: found ? "When did you find it?" : "When was it last seen?", hint: nil,
                  kind: .input(type: "date"), short: true,
                  attributes: [("max", latest.description), ("data-today", today.description)], fields: [.lastSeenDate])
    }

    static func place(found: Bool) -> FormInput {
        FormInput(name: "where", label: found ? "Where did you find it?" : "Where was it last seen?",
                  hint: "A town or district, or coordinates such as 52.2297, 21.0122.",
                  kind: .input(type: "text"), autocomplete: "off", spellcheck: false,
                  attributes: [("list", "where-suggestions")], fields: [.latitude, .longitude])
    }

    static let description = FormInput(name: "description", label: "Description",
                                       hint: "Colour, markings, collar, behaviour: anything that helps to recognise it.",
                                       kind: .textarea(rows: 5), optional: true,
                                       maxLength: TextLimit.description.maximumCharacters, fields: [.description])

    static let phone = FormInput(name: "phone", label: "Phone number", hint: "With the country code if it is not a local number, such as +48 600 123 456.",
                                 kind: .input(type: "tel"), autocomplete: "tel", spellcheck: false, fields: [.phone])

    static let email = FormInput(name: "email", label: "Email address", hint: nil, kind: .input(type: "email"),
                                 autocomplete: "email", spellcheck: false, fields: [.email])

    static func reward(found: Bool) -> FormInput {
        FormInput(name: "reward", label: "Reward", hint: found ? nil : "What you offer to whoever brings your pet home.",
                  kind: .input(type: "text"), optional: true, autocomplete: "off",
                  maxLength: TextLimit.reward.maximumCharacters, fields: [.reward])
    }
}
