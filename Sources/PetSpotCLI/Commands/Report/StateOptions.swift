import ArgumentParser
import Foundation

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

    /// The draft store in that folder.
    func store() -> DraftStore {
        DraftStore(location: location())
    }
}

extension ReportFlow: ExpressibleByArgument {}
