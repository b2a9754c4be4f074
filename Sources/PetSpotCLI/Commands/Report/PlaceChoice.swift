import Foundation
import PetSpot
import PetSpotClient
import PhotoCLI

/// A place name typed for a pet's location (`--place` on a report or on `pet edit`), looked up
/// on the server from where the pet is known to be (the announcement's or the draft's position),
/// so nearer places come first. A name no place has is refused with the close spellings the
/// server offers, never one of them taken in its place; a place far from where the pet was is
/// taken only when confirmed on a terminal, and refused otherwise, naming the place and its
/// country.
enum PlaceChoice {
    /// Farther than this from the pet's known position, a place is confirmed before it is taken.
    static let farKm = 100.0

    enum Outcome {
        case place(ResolvedPlace)
        /// Nothing is taken; the reason was printed; the command ends with this status.
        case refused(ExitStatus)
    }

    /// - Parameters:
    ///   - origin: where the pet is known to be, when it is.
    ///   - whose: "the announcement's location" or "the report's location", for the messages.
    ///   - nothing: "nothing was changed" or "nothing was kept for the location".
    static func choose(_ name: String, client: PetSpotAPIClient, near origin: (latitude: Double, longitude: Double)?,
                       whose: String, nothing: String) async -> Outcome {
        let server = client.configuration.server
        let lookup: PlaceLookup
        do {
            lookup = try await client.lookUpPlace(name, near: origin)
        } catch {
            Terminal.error("error: --place: could not look up \"\(Terminal.escaped(name))\" on \(server): \(error.detail); "
                + "\(nothing). Give --location \"LAT, LON\" instead, or try again with --server.")
            return .refused(.unavailable)
        }
        switch lookup {
        case .unknown(let close):
            let advice = close.isEmpty ? "Try the town's name with its country (\"Paris, France\"), or give --location \"LAT, LON\"."
                : "Did you mean \(close.map { "\"\(Terminal.escaped($0))\"" }.joined(separator: " or "))? Give that with --place if so."
            Terminal.error("error: --place: the server at \(server) knows no place named \"\(Terminal.escaped(name))\"; \(nothing). \(advice)")
            return .refused(.dataError)
        case .found(let place):
            if let origin {
                let km = place.distanceKm ?? distanceKm(origin, (place.latitude, place.longitude))
                if km > farKm, !confirmFar(name, place: place, km: km, whose: whose, origin: origin, nothing: nothing) {
                    return .refused(.dataError)
                }
            }
            Terminal.error("note: --place \"\(Terminal.escaped(name))\" is \(Terminal.escaped(place.label)) (\(place.latitude), \(place.longitude)).")
            return .place(place)
        }
    }

    /// On a terminal, asks whether the far place is meant; elsewhere refuses, saying how to give
    /// it anyway.
    private static func confirmFar(_ name: String, place: ResolvedPlace, km: Double, whose: String,
                                   origin: (latitude: Double, longitude: Double), nothing: String) -> Bool {
        let distance = km >= 10 ? "\(Int(km.rounded()).formatted()) km" : String(format: "%.1f km", km)
        let sentence = "--place \"\(Terminal.escaped(name))\" is \(Terminal.escaped(place.label)), \(distance) from \(whose) "
            + "(\(origin.latitude), \(origin.longitude))"
        if Terminal.stdinIsTerminal && Terminal.stderrIsTerminal {
            Terminal.prompt("\(sentence). Move the pet there? [y/N] ")
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            if ["y", "yes"].contains(answer) { return true }
            Terminal.error("Not moved; \(nothing).")
            return false
        }
        Terminal.error("error: \(sentence); a place that far is not taken without asking, and \(nothing). "
            + "If it is right, give --location \"\(place.latitude), \(place.longitude)\", or run the command on a terminal to confirm it.")
        return false
    }

    /// Great-circle distance in kilometres.
    static func distanceKm(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians, dLon = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0088 * asin(min(1, h.squareRoot()))
    }
}
