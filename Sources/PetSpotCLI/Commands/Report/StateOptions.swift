import ArgumentParser
import Foundation
import PhotoCLI

/// Where report drafts are kept, shared by the `report` commands.
struct StateOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The state folder holding drafts/ (default: $PETSPOT_STATE_DIR, else $XDG_STATE_HOME/petspot, else ~/.local/state/petspot).",
                               valueName: "dir"),
            completion: .directory)
    var stateDir: String?

    /// The state folder, by the rules of ``StateLocation/resolve(flag:environment:)``.
    func location(environment: [String: String] = ProcessInfo.processInfo.environment) -> StateLocation {
        StateLocation.resolve(flag: stateDir, environment: environment)
    }

    func validate() throws {
        try FolderChoice.checkFlag(stateDir, option: "--state-dir", fallback: "$PETSPOT_STATE_DIR or the default")
    }

    /// The draft store in that folder (saying so when a relative `XDG_STATE_HOME` was passed over).
    func store(environment: [String: String] = ProcessInfo.processInfo.environment) -> DraftStore {
        let location = location(environment: environment)
        if let note = FolderChoice.relativeXDGNote("XDG_STATE_HOME", environment: environment,
                                                   used: location.source != .home, instead: location.root.path) {
            Terminal.error(note)
        }
        return DraftStore(location: location)
    }
}

extension ReportFlow: ExpressibleByArgument {}
