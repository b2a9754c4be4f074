import Foundation
import TestProcesses

/// `scripts/smtp-sink.py`: a real SMTP server (aiosmtpd) on a free port that keeps every message
/// it accepts in a folder, with STARTTLS under a self-signed certificate, and modes that refuse,
/// defer, break off or go away, switched while it runs. Stopped when dropped.
public final class SMTPSink: @unchecked Sendable {
    public let port: Int
    /// The certificate the sink presents, to give the server as `--smtp-ca-file`.
    public let caFile: String?
    public let folder: String
    private let engine: ScriptEngine

    public static let script = repositoryFile("scripts/smtp-sink.py")
    public static let checker = repositoryFile("scripts/check-mail.py")

    /// - Parameters:
    ///   - plain: no TLS at all (a relay on loopback); else STARTTLS is required.
    ///   - password: AUTH as user `petspot` with this password is required.
    public init(folder: String, plain: Bool = false, password: String? = nil) throws {
        self.folder = folder
        var arguments = [folder]
        if plain { arguments.append("--plain") }
        if let password { arguments += ["--password", password] }
        engine = try ScriptEngine(Self.script, arguments: arguments)
        struct Started: Decodable { var port: Int; var ca_file: String? }
        let started = try engine.started(as: Started.self, hint: "is aiosmtpd installed? run scripts/install-test-deps.sh")
        port = started.port
        caFile = started.ca_file
    }

    /// `smtp://petspot[:password]@127.0.0.1:PORT`, with `?tls=none` for a plain sink.
    public func url(password: String? = nil, plain: Bool = false) -> String {
        let user = password.map { "petspot:\($0)@" } ?? ""
        return "smtp://\(user)127.0.0.1:\(port)" + (plain ? "?tls=none" : "")
    }

    public enum Mode: Sendable {
        case accept, deferAll, rejectAll, dropInData
        /// Keep each message, then answer 250 only after this long.
        case slowAcknowledgement(seconds: Double)

        var command: String {
            switch self {
            case .accept: "mode ok"
            case .deferAll: "mode 4xx"
            case .rejectAll: "mode 5xx"
            case .dropInData: "mode drop"
            case .slowAcknowledgement(let seconds): "mode slow-ack \(seconds)"
            }
        }
    }

    public func set(_ mode: Mode) throws { try command(mode.command) }
    /// Stops listening: connections are refused, as to a dead server.
    public func stop() throws { try command("stop") }
    /// Listens again on the same port.
    public func start() throws { try command("start") }

    /// The messages kept so far, oldest first: their files (`NNNNNN.eml`).
    public func messageFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
            .map { folder + "/" + $0 }
    }

    /// Waits until at least `count` messages were kept (or `timeout` passed); the files.
    public func waitForMessages(_ count: Int, timeout: Duration = .seconds(20)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let files = messageFiles()
            if files.count >= count { return files }
            try await Task.sleep(for: .milliseconds(25))
        }
        return messageFiles()
    }

    /// The envelope of a kept message (its `.json` beside the `.eml`).
    public func envelope(of file: String) throws -> Envelope {
        try JSONDecoder().decode(Envelope.self, from: Data(contentsOf: URL(fileURLWithPath: String(file.dropLast(4)) + ".json")))
    }

    public struct Envelope: Decodable, Sendable {
        public var mail_from: String
        public var rcpt_tos: [String]
        public var received_at: Double
    }

    private func command(_ line: String) throws { try engine.command(line) }

    static func repositoryFile(_ path: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(path)
    }
}

/// A message as Python's `email` package reads it (`scripts/check-mail.py`).
public struct ParsedMail: Decodable, Sendable {
    public var file: String
    public var headers: [String: [String]]
    public var raw_headers: String
    public var content_type: String
    public var parts: [Part]
    public var defects: [String]
    public var html_errors: [String]
    public var links: [String?]
    public var images: [Image]
    public var linked_images: [LinkedImage]
    public var text_links: [String]
    public var non_ascii_header_bytes: Bool
    public var longest_line: Int

    public struct Part: Decodable, Sendable {
        public var type: String
        public var charset: String?
        public var transfer_encoding: String?
        public var disposition: String?
        public var text: String?
    }

    public struct Image: Decodable, Sendable {
        public var src: String?
        public var alt: String?
    }

    public struct LinkedImage: Decodable, Sendable {
        public var href: String
        public var src: String?
    }

    /// The one value of a header (`nil` when absent; the first when repeated).
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value.first
    }

    /// How many times a header appears.
    public func count(of name: String) -> Int {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value.count ?? 0
    }

    public var text: String? { parts.first { $0.type == "text/plain" }?.text }
    public var html: String? { parts.first { $0.type == "text/html" }?.text }

    /// Reads `files` with `scripts/check-mail.py` (one Python process for all).
    public static func read(_ files: [String]) throws -> [ParsedMail] {
        guard !files.isEmpty else { return [] }
        let process = try ChildProcess("/usr/bin/env", ["python3", SMTPSink.checker.path] + files, output: .pipe, error: .inherited)
        let data = process.standardOutput!.readDataToEndOfFile()
        process.waitForExit()
        return try JSONDecoder().decode([ParsedMail].self, from: data)
    }
}
