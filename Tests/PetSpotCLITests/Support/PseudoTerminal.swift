import Foundation

/// Runs `petspot` on a pseudo-terminal through `scripts/pty-drive.py` (Python's `pty` module),
/// typing each answer only once its question is on the screen and libedit reads keys, as a person
/// does: keys typed ahead of the line editor are taken by the terminal's own line editing (echoed
/// twice, Ctrl-D turned into an end-of-file mark libedit never sees).
enum PseudoTerminal {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/pty-drive.py")

    /// Whether python3 (with its `pty` module) is there to drive a terminal.
    static let isAvailable: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return FileManager.default.fileExists(atPath: script.path)
            && path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }()

    /// One step of a conversation.
    enum Step {
        /// Wait until the terminal shows this text (after the previous match).
        case expect(String)
        /// Type these keys: "\t" Tab, "\r" Enter, "\u{03}" Ctrl-C, "\u{04}" Ctrl-D.
        case send(String)
        /// Run `petspot` with these arguments to its end while the program on the terminal waits.
        case petspot([String])
        /// Wait for the program to end.
        case exit
    }

    /// How a command run during the conversation ended.
    struct Run {
        var status: Int?
        var stdout: String
        var stderr: String
        var seconds: Double
    }

    /// How the conversation went.
    struct Session: CustomStringConvertible {
        /// The exit code, or minus the signal number.
        var status: Int?
        /// The process id of the program on the terminal.
        var pid: Int
        /// Everything the terminal showed.
        var transcript: String
        var runs: [Run]
        /// Whether the terminal was left echoing, line by line, as a shell expects it.
        var leftCooked: Bool
        /// A step that did not happen (what was awaited), or `nil`.
        var error: String?

        var description: String {
            "status \(status.map(String.init) ?? "none"), error \(error ?? "none")\n--- terminal ---\n\(transcript)"
                + runs.map { "\n--- run (\($0.status.map(String.init) ?? "timed out"), \($0.seconds) s) ---\n\($0.stdout)\n\($0.stderr)" }.joined()
        }
    }

    struct DriverFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `petspot arguments` on a pseudo-terminal (in `directory`), going through `steps`.
    /// - Parameter stdoutFile: Where petspot's stdout goes instead of the terminal.
    static func petspot(_ arguments: [String], steps: [Step], sandbox: ReportSandbox, in directory: URL? = nil,
                        stdoutFile: URL? = nil, stepTimeout: Int = 30) async throws -> Session {
        let petspot = try CLIRunner.petspotURL().path
        let json: [[String: Any]] = steps.map { step in
            switch step {
            case .expect(let text): ["expect": text]
            case .send(let keys): ["send": keys]
            case .petspot(let arguments): ["run": [petspot] + arguments]
            case .exit: ["expect_exit": true]
            }
        }
        let input = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
        var driverArguments = [script.path, "--timeout", String(stepTimeout), "--line-editor"]
        if let stdoutFile { driverArguments += ["--stdout", stdoutFile.path] }
        // A wide terminal, so long prompts never wrap; TERM set so libedit knows how to redraw.
        var environment = sandbox.environment
        environment["TERM"] = "xterm"
        let result = try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + driverArguments + ["--", petspot] + arguments,
                                             in: directory, environment: environment, input: input,
                                             timeout: .seconds(stepTimeout * (steps.count + 2)))
        guard result.exitCode == 0, let object = try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        else { throw DriverFailure(description: "scripts/pty-drive.py failed: \(result)") }
        let runs = (object["runs"] as? [[String: Any]] ?? []).map {
            Run(status: $0["status"] as? Int, stdout: $0["stdout"] as? String ?? "", stderr: $0["stderr"] as? String ?? "",
                seconds: $0["seconds"] as? Double ?? 0)
        }
        let terminal = object["terminal"] as? [String: Bool]
        return Session(status: object["status"] as? Int, pid: object["pid"] as? Int ?? 0,
                       transcript: object["transcript"] as? String ?? "", runs: runs,
                       leftCooked: terminal?["echo"] == true && terminal?["canonical"] == true,
                       error: object["error"] as? String)
    }
}
