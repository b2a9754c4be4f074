import ArgumentParser
import PhotoCLI

/// `petspot report …`
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Fill in a missing-pet or found-pet report, step by step or with flags.",
        discussion: """
            Each flow has one draft, kept in drafts/ of the state folder: --state-dir, else \
            $PETSPOT_STATE_DIR, else $XDG_STATE_HOME/petspot (when absolute), else \
            ~/.local/state/petspot. A draft stays until `report discard`, whatever happens to the \
            photo cache; its photo is the photo pinned for its flow in the cache, which `cache clear` \
            keeps (only --all removes it).
            """,
        subcommands: [ReportMissingCommand.self, ReportFoundCommand.self, ReportShowCommand.self,
                      ReportValidateCommand.self, ReportSubmitCommand.self, ReportDiscardCommand.self]
    )
}

/// The help shared by `report missing` and `report found`.
enum ReportFillingHelp {
    static let discussion = """
        Flags fill the draft without asking, each replacing the saved value ('' clears it); the \
        draft is saved, then the state of every step is printed. On a terminal (unless --no-input), \
        what is still missing is asked step by step; with no field flags, every question is asked, \
        with the saved answers in [brackets]. At a question, Enter keeps the value or skips an \
        optional field, '-' clears it, '<' goes back a step, and Ctrl-D saves and stops.

        Exits 0 once the draft is saved, complete or not; `petspot report validate` is the gate.
        """
}

extension ReportCommand: ExitCodesListed {
    static var exitCodes: [ExitStatus] { ExitStatus.reportCodes }
}
