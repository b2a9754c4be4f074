import ArgumentParser
import Foundation
import Logging
import PetSpotServer
import ServiceLifecycle

/// `petspot-server migrate`: an embedded installation into PostgreSQL + S3.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy an embedded installation (data directory) into PostgreSQL and an S3-compatible bucket.",
        discussion: """
            Copies every announcement (ids, password hashes, dates, photo keys), the idempotency \
            records of the last 24 hours and every referenced photo; then checks that the target \
            holds each of them. Safe to run again, or after it was stopped half-way: what is there \
            already is left as it is, and the result is the same. The server must be stopped \
            (the data directory's lock is taken). Options can also come from PETSPOT_* variables.
            """)

    @Option(name: .customLong("from-data-dir"), help: "The data directory of the embedded installation.")
    var fromDataDirectory: String

    @Option(name: .customLong("database-url"), help: "The target: postgres://USER:PASSWORD@HOST:PORT/DATABASE (prefer PETSPOT_DATABASE_URL).")
    var databaseURL: String

    @OptionGroup var store: PhotoStoreOptions

    @Option(name: .customLong("batch-size"), help: "Announcements copied per transaction.")
    var batchSize = 200

    func validate() throws {
        guard store.photoStore != nil else { throw ValidationError("--photo-store s3://BUCKET[/prefix] names the target bucket.") }
        guard (1...10_000).contains(batchSize) else { throw ValidationError("--batch-size must be 1 to 10000 (got \(batchSize)).") }
    }

    func run() async throws {
        LogSetup.bootstrap(format: .text, level: .warning)
        let logger = Logger(label: "petspot-server.migrate")
        let url = try ConfigurationFailure.databaseURL(databaseURL)
        guard let bucket = try store.bucket() else { throw ExitCode(64) }
        var migration = InstallationMigration(
            dataDirectory: fromDataDirectory, target: PostgresAnnouncementStore(url: url, maxConnections: 4, logger: logger),
            bucket: S3PhotoStore(location: bucket.location, credentials: bucket.credentials, logger: logger), logger: logger)
        migration.batchSize = batchSize
        let onTerminal = isatty(STDERR_FILENO) == 1
        let settled = migration
        let started = ContinuousClock.now
        let client = settled.target.client
        let outcome: Result<InstallationMigration.Report, any Error> = await withTaskGroup(of: Result<InstallationMigration.Report, any Error>?.self) { group in
            group.addTask { await client.run(); return nil }
            group.addTask {
                do {
                    return .success(try await settled.run { done, total in
                        // One line rewritten in place on a terminal; a line per batch in a log.
                        FileHandle.standardError.write(Data("\(onTerminal ? "\r" : "")copied \(done) of \(total) announcement(s)\(onTerminal ? "…" : "\n")".utf8))
                    })
                } catch {
                    return .failure(error)
                }
            }
            let first = await group.next()!!
            group.cancelAll()
            return first
        }
        if onTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
        switch outcome {
        case .success(let report):
            let elapsed = ContinuousClock.now - started
            print("migrated \(report) in \(elapsed.components.seconds) s")
            // Rows are copied as they are: their password forms need the source's keys.
            let keys = fromDataDirectory + "/password-keys"
            if FileManager.default.fileExists(atPath: keys) {
                print("The management passwords are checked with the keys in \(keys): give the same to every replica "
                      + "(PETSPOT_PASSWORD_KEY=\"$(grep -v '^#' \(keys) | paste -sd,)\" or --password-key-file \(keys)).")
            } else {
                print("This installation never ran a server with password keys: its bcrypt hashes are sealed by the first replica "
                      + "to start, under the key every replica is given (PETSPOT_PASSWORD_KEY or --password-key-file).")
            }
        case .failure(let error):
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(error is MigrationError ? 65 : 73)
        }
    }
}
