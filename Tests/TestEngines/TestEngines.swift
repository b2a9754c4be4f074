import Foundation

/// One PostgreSQL cluster and one S3 emulator for a test process, started on first use; the
/// suites that run servers on PostgreSQL + S3 share them (each server gets its own database
/// and its own prefix in the bucket).
public final class TestEngines: Sendable {
    public let postgres: PostgresCluster
    public let s3: S3Emulator

    /// The engines, or why they could not start.
    public static let shared = Result { try TestEngines() }

    /// Whether `PETSPOT_TEST_BACKEND=postgres-s3` asks for servers on PostgreSQL + S3 instead
    /// of the embedded SQLite + data directory.
    public static var postgresS3IsConfigured: Bool {
        ProcessInfo.processInfo.environment["PETSPOT_TEST_BACKEND"] == "postgres-s3"
    }

    init() throws {
        postgres = try PostgresCluster()
        s3 = try S3Emulator()
    }
}
