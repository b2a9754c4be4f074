import ArgumentParser
import PetSpot

/// The flags that fill the fields both flows share. Each replaces the draft's value; an empty
/// value (`--reward ''`) clears it.
struct ReportFieldOptions: ParsableArguments {
    @Option(help: "Microchip number: 15 digits (older chips: 9 or 10); spaces and dashes are fine.")
    var chip: String?

    @Option(help: "The pet's name, when you know it (up to 100 characters).")
    var name: String?

    @Option(help: ArgumentHelp("Photo file (JPEG, PNG, WebP, HEIC or AVIF): prepared into the cache and pinned as the report's photo; '' removes it.",
                               valueName: "file"),
            completion: .file())
    var photo: String?

    @Option(help: "dog, cat, bird, rabbit, rodent, reptile or other.",
            completion: .list(Species.allCases.map { $0.rawValue.lowercased() }))
    var species: String?

    @Option(help: "Breed or race (required for a missing pet).")
    var breed: String?

    @Option(help: "male or female; unknown too for a found pet.", completion: .list(["male", "female", "unknown"]))
    var sex: String?

    @Option(parsing: .unconditional, help: "Age in whole years, 0–40.")
    var age: String?

    @Option(help: ArgumentHelp("Day last seen (or found): YYYY-MM-DD, today or yesterday; not in the future.", valueName: "day"))
    var date: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Latitude in decimal degrees, -90…90.", valueName: "degrees"))
    var lat: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Longitude in decimal degrees, -180…180.", valueName: "degrees"))
    var lon: String?

    @Option(name: .customLong("description"), help: "What the pet looks like (up to 500 characters).")
    var descriptionText: String?

    @Option(help: "Your phone number, 7–15 digits.")
    var phone: String?

    @Option(help: "Your email address.")
    var email: String?

    @Option(help: "Reward offered (up to 120 characters).")
    var reward: String?

    @Flag(help: "Take the latitude and longitude from the GPS position of the photo attached in this command (never without this flag).")
    var locationFromPhoto = false

    /// The typed fields given, in form order (the photo is separate: it goes through the cache).
    var edits: [(field: FormField, text: String)] {
        let all: [(FormField, String?)] = [
            (.microchipNumber, chip), (.petName, name), (.species, species), (.breed, breed), (.gender, sex), (.age, age),
            (.lastSeenDate, date), (.latitude, lat), (.longitude, lon), (.description, descriptionText),
            (.phone, phone), (.email, email), (.reward, reward),
        ]
        return all.compactMap { field, text in text.map { (field, $0) } }
    }

    func validate() throws {
        if locationFromPhoto && (lat != nil || lon != nil) {
            throw ValidationError("Give either --lat/--lon or --location-from-photo, not both.")
        }
        if locationFromPhoto && photo?.isEmpty == true {
            throw ValidationError("--location-from-photo reads the photo attached with --photo, which '' removes.")
        }
    }
}

/// The flags of the fields only the found flow has.
struct FoundFieldOptions: ParsableArguments {
    @Option(help: "Phone of whoever looks after the pet now (kept with you, never sent), 7–15 digits.")
    var caregiverPhone: String?

    @Option(help: "Where the pet is now (kept with you, never sent; up to 500 characters).")
    var address: String?

    /// The found flow's fields given.
    var edits: [(field: FormField, text: String)] {
        [(FormField.caregiverPhone, caregiverPhone), (.foundAddress, address)].compactMap { field, text in
            text.map { (field, $0) }
        }
    }
}
