import Foundation
import NIOCore
import PetSpot
import Testing

/// `petspot-server places import` with the built binary, on the configured backend, then the
/// server using what it imported.
@Suite struct PlacesImportTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PetSpotServerTests/Fixtures/places-sample.json").path

    static func importPlaces(_ file: String, dataDirectory: String) async throws -> (Int32, String) {
        let storage = try TestBackend.configured.settings(for: dataDirectory, given: [])
        let environment = ProcessInfo.processInfo.environment.merging(storage.environment) { $1 }
        return try await runProcessToEnd(ServerProcess.binary.path, ["places", "import", file, "--data-dir", dataDirectory],
                                         environment: environment)
    }

    @Test func importedPlacesNameTheServersAnnouncements() async throws {
        let data = try makeTemporaryDirectory("places-import")
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (status, output) = try await Self.importPlaces(Self.sample, dataDirectory: data)
        #expect(status == 0 && output.contains("imported 36 places with"), "\(output)")
        // A file that is not GeoNames' changes nothing and says what it wanted.
        let (refused, message) = try await Self.importPlaces(#filePath, dataDirectory: data)
        #expect(refused == 65 && message.contains("not a GeoNames place"), "\(message)")

        let server = try ServerProcess(dataDirectory: data, arguments: ["--log-level", "notice"])
        #expect(server.log.contains("places: 36 loaded"), "\(server.log)")
        let place = try await HTTP.send(.GET, server.baseURL + "/api/v1/places?q=Mokot%C3%B3w%2C%20Warsaw")
        #expect(place.status == 200 && String(decoding: place.body, as: UTF8.self).contains(#""name":"Mokotów""#))
        let body = HTTP.announcementJSON.replacingOccurrences(of: "-33.8688", with: "52.1934")
            .replacingOccurrences(of: "151.2093", with: "21.03487")
        let created = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath,
                                          headers: [("Content-Type", "application/json")], body: .bytes(ByteBuffer(string: body)))
        let id = try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(created.body)).id
        let details = try PetSpotJSON.decode(PetDetails.self, from: Data(try await HTTP.send(.GET, server.baseURL + AnnouncementsAPI.announcementPath(id: id)).body))
        #expect(details.location == "In Mokotów, Warsaw, Poland")
        let card = try await HTTP.send(.GET, server.baseURL + "/pets/\(id.rawValue)")
        #expect(String(decoding: card.body, as: UTF8.self).contains("In Mokotów, Warsaw, Poland"))
        if TestBackend.configured == .embedded {
            // The embedded database belongs to the running server: the import waits for it to stop.
            let (locked, why) = try await Self.importPlaces(Self.sample, dataDirectory: data)
            #expect(locked != 0 && why.contains("in use by another petspot-server"), "\(why)")
        }
        #expect(server.stop() == 0)
    }
}
