import Foundation
import NIOCore
import PetSpot
import PhotoPipeline
import TestEngines
import Testing

/// A server sending its mail through a real SMTP server (``SMTPSink``: STARTTLS under a
/// self-signed certificate given as `--smtp-ca-file`, AUTH with the password from a file),
/// with metrics on a port of their own and short retry delays.
struct MailStack {
    static let password = "relay-pa55word-\(UUID().uuidString.prefix(8))"

    let folder: String
    let sink: SMTPSink
    var server: ServerProcess
    private(set) var metricsURL: String

    /// - Parameters:
    ///   - arguments: more server options.
    ///   - environment: more of the server's environment (a `PETSPOT_DATABASE_URL` for replicas).
    ///   - prepare: run on the data directory before the server starts (a places import).
    static func start(_ label: String, arguments: [String] = [], environment: [String: String] = [:], sink given: SMTPSink? = nil,
                      prepare: (String) async throws -> Void = { _ in }) async throws -> MailStack {
        let folder = try makeTemporaryDirectory(label)
        try await prepare(folder + "/data")
        let sink = try given ?? SMTPSink(folder: folder + "/sink", password: password)
        let server = try ServerProcess(dataDirectory: folder + "/data", arguments: try serverArguments(folder: folder, sink: sink) + arguments,
                                       environment: environment)
        return MailStack(folder: folder, sink: sink, server: server, metricsURL: try metricsURL(server))
    }

    static func serverArguments(folder: String, sink: SMTPSink) throws -> [String] {
        let passwordFile = folder + "/smtp-password"
        try (password + "\n").write(toFile: passwordFile, atomically: true, encoding: .utf8)
        return ["--smtp-url", "smtp://petspot@127.0.0.1:\(sink.port)", "--smtp-password-file", passwordFile,
                "--smtp-ca-file", sink.caFile!, "--mail-from", "PetSpot <alerts@pets.test>",
                "--mail-retry-delays", "200ms,400ms", "--mail-give-up-after", "60s", "--mail-poll-interval", "300ms",
                "--mail-photo-grace", "1s",
                "--metrics-port", "0", "--log-level", "notice"]
    }

    static func metricsURL(_ server: ServerProcess) throws -> String {
        let line = try #require(server.log.split(separator: "\n").first { $0.hasPrefix("petspot-server metrics on ") })
        return String(line.split(separator: " ").last!)
    }

    /// Starts the server again on the same data directory (and database) after it ended.
    mutating func restart(arguments: [String] = []) throws {
        server = try ServerProcess(dataDirectory: folder + "/data", arguments: try Self.serverArguments(folder: folder, sink: sink) + arguments)
        metricsURL = try Self.metricsURL(server)
    }

    /// `petspot_mail_messages_total{event=…}` now.
    func mailCount(_ event: String) async throws -> Int {
        try await Self.metric(metricsURL, "petspot_mail_messages_total{event=\"\(event)\"}")
    }

    /// `petspot_mail_jobs_total{kind=…}` now.
    func jobCount(_ kind: String) async throws -> Int {
        try await Self.metric(metricsURL, "petspot_mail_jobs_total{kind=\"\(kind)\"}")
    }

    static func metric(_ url: String, _ series: String) async throws -> Int {
        let text = String(decoding: try await HTTP.send(.GET, url).body, as: UTF8.self)
        let line = text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
        return line.flatMap { Double($0.split(separator: " ").last!) }.map { Int($0) } ?? 0
    }

    /// Waits until the outbox holds nothing queued (every message sent, failed or cancelled,
    /// every piece of work done) and the server counted as finished every message it queued.
    func settle(timeout: Duration = .seconds(30)) async throws {
        try await eventually(timeout: timeout) {
            guard try await server.backend.outboxBacklog(dataDirectory: folder + "/data") == 0 else { return false }
            let queued = try await mailCount("queued")
            let finished = try await mailCount("sent") + (try await mailCount("failed")) + (try await mailCount("cancelled"))
            return queued <= finished
        }
    }

    /// Creates a report over HTTP; `fields` overrides the JSON (each value JSON already).
    func create(_ fields: [String: String]) async throws -> AnnouncementResponse {
        var all: [String: String] = [
            "species": #""DOG""#, "sex": #""MALE""#, "last_seen_date": #""2025-11-10""#,
            "location_latitude": "52.2297", "location_longitude": "21.0122",
            "email": #""owner@example.com""#, "phone": #""+48123456789""#, "status": #""MISSING""#,
        ]
        for (key, value) in fields { all[key] = value }
        let body = "{" + all.keys.sorted().map { "\"\($0)\":\(all[$0]!)" }.joined(separator: ",") + "}"
        let reply = try await HTTP.send(.POST, server.baseURL + AnnouncementsAPI.collectionPath, headers: [("Content-Type", "application/json")],
                                        body: .bytes(ByteBuffer(string: body)))
        guard reply.status == 201 else { throw HTTP.Unexpected(reply: reply) }
        return try PetSpotJSON.decode(AnnouncementResponse.self, from: Data(reply.body))
    }

    /// The messages kept so far, read by Python's `email` package, with their envelopes.
    func messages() throws -> [(mail: ParsedMail, envelope: SMTPSink.Envelope)] {
        let files = sink.messageFiles()
        return zip(try ParsedMail.read(files), try files.map(sink.envelope(of:))).map { ($0, $1) }
    }
}

/// Polls `condition` every 100 ms until it holds; fails the test after `timeout`.
func eventually(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool,
                sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the condition did not hold within \(timeout)", sourceLocation: sourceLocation)
    throw CancellationError()
}

/// A 400 × 300 JPEG: an animal-shaped blob of `colour` on grass (what matching compares).
func animalPhoto(_ colour: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: 400 * 300 * 3)
    for y in 0..<300 {
        for x in 0..<400 {
            let dx = Double(x - 200) / 110, dy = Double(y - 160) / 70
            let inside = dx * dx + dy * dy < 1 || (pow(Double(x - 290) / 40, 2) + pow(Double(y - 100) / 35, 2) < 1)
            let (r, g, b) = inside ? colour : (UInt8(80), UInt8(130), UInt8(60))
            let i = (y * 400 + x) * 3
            (pixels[i], pixels[i + 1], pixels[i + 2]) = (r, g, b)
        }
    }
    return try PipelineStages.encode(PixelBuffer(width: 400, height: 300, channels: 3, pixels: pixels),
                                     options: EncodingOptions(quality: 90), iccProfile: nil)
}
