import ArgumentParser
import Foundation
import PetSpotClient

/// Where reports go and how patiently, shared by `report submit`, `submissions retry` and `pet`.
struct ServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The PetSpot server (default: $PETSPOT_SERVER, else \(ClientConfiguration.defaultServer)).", valueName: "url"))
    var server: String?

    @Option(name: .customLong("connect-timeout"), help: ArgumentHelp("Seconds to wait for a connection.", valueName: "seconds"))
    var connectTimeout: Double = 10

    @Option(name: .customLong("read-timeout"), help: ArgumentHelp("Seconds of silence from the server before a request is given up.", valueName: "seconds"))
    var readTimeout: Double = 60

    @Option(name: .customLong("max-attempts"), help: "Attempts per step, retries included (connection errors, timeouts, 408, 429, 5xx; a read does not retry a refused connection).")
    var maxAttempts: Int = 50

    @Option(name: .customLong("max-retry-time"), help: ArgumentHelp("Seconds after which no new attempt of a step starts (a server restarting is waited for this long).", valueName: "seconds"))
    var maxRetryTime: Double = 30

    func validate() throws {
        for (name, value) in [("--connect-timeout", connectTimeout), ("--read-timeout", readTimeout)] {
            guard value.isFinite, value >= 0.1, value <= 3600 else {
                throw ValidationError("\(name) must be between 0.1 and 3600 seconds (got \(value)).")
            }
        }
        guard (1...100).contains(maxAttempts) else { throw ValidationError("--max-attempts must be between 1 and 100 (got \(maxAttempts)).") }
        guard maxRetryTime.isFinite, maxRetryTime >= 0, maxRetryTime <= 86_400 else {
            throw ValidationError("--max-retry-time must be between 0 and 86400 seconds (got \(maxRetryTime)).")
        }
        if let server, server.isEmpty { throw ValidationError("--server must not be empty.") }
    }

    /// The server this run names itself, `--server` or `$PETSPOT_SERVER` (checked), or `nil`
    /// when it names none.
    func chosenServer(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String? {
        guard server != nil || environment["PETSPOT_SERVER"].map({ !$0.isEmpty }) == true else { return nil }
        let url = try SubmissionFailure.run { () throws(SubmissionError) in
            try ClientConfiguration.resolveServer(flag: server, environment: environment)
        }
        return ClientConfiguration(server: url).server
    }

    /// The settings to read or change an announcement: `--server`, else the server the journal
    /// says it was sent to, else `$PETSPOT_SERVER`, else the default.
    func configuration(forAnnouncement id: String, journal: SubmissionJournal) throws -> ClientConfiguration {
        if server == nil, let record = (try? journal.record(matching: id)) ?? nil, record.announcementID?.rawValue == id {
            return try configuration(server: record.server)
        }
        return try configuration()
    }

    /// The client settings; the server from the flag, `$PETSPOT_SERVER` or the default.
    func configuration(server override: String? = nil) throws -> ClientConfiguration {
        let url = try SubmissionFailure.run { () throws(SubmissionError) in
            try ClientConfiguration.resolveServer(flag: override ?? server)
        }
        return ClientConfiguration(
            server: url, connectTimeout: .milliseconds(Int64(connectTimeout * 1000)),
            readTimeout: .milliseconds(Int64(readTimeout * 1000)),
            retry: RetryPolicy(maxAttempts: maxAttempts, maxTotalTime: .milliseconds(Int64(maxRetryTime * 1000)),
                               baseDelay: .milliseconds(500), maxDelay: .seconds(5)))
    }
}
