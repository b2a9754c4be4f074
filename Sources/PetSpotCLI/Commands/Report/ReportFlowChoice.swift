import ArgumentParser
import Foundation
import PetSpot

/// Which report a command is about when `--flow` is not given: the only one with a saved draft,
/// as `report submit` already works it out.
enum ReportFlowChoice {
    static func resolve(_ given: ReportFlow?, store: DraftStore, command: String) throws -> ReportFlow {
        if let given { return given }
        let drafts = ReportFlow.allCases.filter { FileManager.default.fileExists(atPath: store.url(for: $0).path) }
        guard drafts.count == 1 else {
            throw ValidationError(drafts.isEmpty
                ? "There is no report draft; say which report with --flow missing or --flow found (`petspot report missing` starts one)."
                : "Both reports have drafts; say which with `petspot report \(command) --flow missing` or `--flow found`.")
        }
        return drafts[0]
    }
}
