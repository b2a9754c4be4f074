import Foundation

/// A scratch state folder and cache folder for the report commands' tests, and ways to run
/// `petspot` against them and read what it saved.
struct ReportSandbox {
    /// The scratch folder holding everything.
    let folder: URL

    /// `PETSPOT_STATE_DIR`.
    var stateDir: URL { folder.appendingPathComponent("state") }
    /// `PETSPOT_CACHE_DIR`.
    var cacheDir: URL { folder.appendingPathComponent("cache") }
    /// Where the drafts are saved.
    var draftsFolder: URL { stateDir.appendingPathComponent("drafts") }

    /// The variables that point the commands at this sandbox, whatever the test process has set.
    var environment: [String: String] {
        ["PETSPOT_STATE_DIR": stateDir.path, "PETSPOT_CACHE_DIR": cacheDir.path,
         "XDG_STATE_HOME": "", "XDG_CACHE_HOME": "", "HOME": folder.appendingPathComponent("home").path]
    }

    /// Runs `body` with a new sandbox, removed afterwards.
    static func with<T>(_ body: (ReportSandbox) async throws -> T) async throws -> T {
        try await PhotoFixtures.withScratchFolder { folder in try await body(ReportSandbox(folder: folder)) }
    }

    /// Runs `petspot` with this sandbox's environment (and no terminal).
    func petspot(_ arguments: [String], input: String? = nil) async throws -> CLIResult {
        try await CLIRunner.petspot(arguments, environment: environment, input: input, timeout: .seconds(30))
    }

    /// `report show --flow <flow> --json`, parsed.
    func show(_ flow: String) async throws -> [String: Any] {
        let result = try await petspot(["report", "show", "--flow", flow, "--json"])
        guard result.exitCode == 0 else { throw Failure(description: "report show failed: \(result)") }
        return try CacheCLISupport.jsonObject(result.stdout)
    }

    /// The file of a flow's draft.
    func draftFile(_ flow: String) -> URL {
        draftsFolder.appendingPathComponent("\(flow).json")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

extension Dictionary where Key == String, Value == Any {
    /// The object under `key`, or an empty one.
    func object(_ key: String) -> [String: Any] { self[key] as? [String: Any] ?? [:] }
}
