import ArgumentParser
import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI

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

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Latitude and longitude together, as a map app copies them: \"52.2297, 21.0122\".", valueName: "lat, lon"))
    var location: String?

    @Option(help: ArgumentHelp("A place name (\"Mokotów, Warsaw\", \"Paris, US\"), looked up at once on the server's gazetteer.",
                               valueName: "name"))
    var place: String?

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
        var edits = all.compactMap { field, text in text.map { (field, $0) } }
        if let location, let (latitude, longitude) = Self.coordinates(location) {
            let at = edits.firstIndex { $0.0 == .description } ?? edits.count
            edits.insert(contentsOf: [(.latitude, latitude), (.longitude, longitude)], at: at)
        }
        return edits
    }

    /// "52.2297, 21.0122" (or with a space, a semicolon, or a degree sign) as the two numbers' texts.
    static func coordinates(_ text: String) -> (String, String)? {
        let parts = text.replacingOccurrences(of: "°", with: "").split { $0 == "," || $0 == ";" || $0 == " " }
        guard parts.count == 2, Double(parts[0]) != nil, Double(parts[1]) != nil else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// `--place` looked up on the server (``PlaceChoice``, from `origin`, the draft's position
    /// when it has one): the latitude and longitude edits, placed as the coordinates flags would
    /// be; or, with the reason printed, the status to end with (65 for a name no place has or a
    /// far place not confirmed, 69 when the server cannot be asked), and nothing kept for the location.
    func placeEdits(server: String?, near origin: (latitude: Double, longitude: Double)? = nil) async
        -> (edits: [(field: FormField, text: String)], failure: ExitStatus?) {
        guard let place else { return ([], nil) }
        let configuration: ClientConfiguration
        do {
            configuration = ClientConfiguration(server: try ClientConfiguration.resolveServer(flag: server),
                                                connectTimeout: .seconds(10), readTimeout: .seconds(20))
        } catch {
            Terminal.error("error: --place: \(error.detail)")
            return ([], .usage)
        }
        let client = PetSpotAPIClient(configuration: configuration)
        defer { Task { await client.shutdown() } }
        switch await PlaceChoice.choose(place, client: client, near: origin, whose: "the report's location",
                                        nothing: "nothing was kept for the location") {
        case .place(let found): return ([(.latitude, String(found.latitude)), (.longitude, String(found.longitude))], nil)
        case .refused(let status): return ([], status)
        }
    }

    func validate() throws {
        let sources = [(lat != nil || lon != nil) ? "--lat/--lon" : nil, location.map { _ in "--location" },
                       place.map { _ in "--place" }, locationFromPhoto ? "--location-from-photo" : nil].compactMap { $0 }
        if sources.count > 1 {
            throw ValidationError("Give the location one way: \(sources.joined(separator: " or ")), not several.")
        }
        if let location, Self.coordinates(location) == nil {
            throw ValidationError("--location takes \"LATITUDE, LONGITUDE\" in decimal degrees, like \"52.2297, 21.0122\" (got \"\(Terminal.escaped(location))\").")
        }
        if let place, place.trimmingCharacters(in: .whitespaces).isEmpty || place.count > 200 {
            throw ValidationError("--place takes a place name of 1 to 200 characters, like \"Mokotów, Warsaw\".")
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
