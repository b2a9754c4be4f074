import PhotoCache
import PhotoPipeline

/// What `cache verify` found, for people and scripts.
struct VerifyRecord: Encodable {
    struct Issue: Encodable {
        var key: String
        var path: String
        var problem: String
        var message: String
    }

    var consistent: Bool
    var clean: Bool
    var repaired: Bool
    var checkedEntries: Int
    var intactEntries: Int
    var issues: [Issue]
    var leftovers: [PruneRecord.Leftover]
    var indexRebuilt: Bool
    var importedFiles: Int?

    init(_ report: VerifyReport) {
        consistent = report.isConsistent
        clean = report.isClean
        repaired = report.repaired
        checkedEntries = report.checkedEntries
        intactEntries = report.intactEntries
        issues = report.issues.map { issue in
            let problem = switch issue.problem {
            case .missingFile: "missing"
            case .sizeMismatch: "size-mismatch"
            case .contentMismatch: "content-mismatch"
            case .unreadable: "unreadable"
            }
            return Issue(key: issue.key, path: issue.path, problem: problem, message: issue.description)
        }
        leftovers = report.leftovers.map { PruneRecord.Leftover(path: $0.path, bytes: $0.bytes, kind: $0.kind.rawValue) }
        indexRebuilt = report.indexRebuild != nil
        importedFiles = report.indexRebuild?.importedFiles
    }

    var humanText: String {
        var lines: [String] = []
        if let importedFiles {
            lines.append("The index was rebuilt from the cached files: \(importedFiles) photo\(importedFiles == 1 ? "" : "s") imported (their source names, capture dates and pins were lost with the old index).")
        }
        lines.append("Checked \(checkedEntries) entr\(checkedEntries == 1 ? "y" : "ies"): \(intactEntries) intact"
                     + (issues.isEmpty ? "." : ", \(issues.count) with a missing or damaged file."))
        for issue in issues { lines.append("  \(issue.problem.padding(toLength: 16, withPad: " ", startingAt: 0)) \(issue.message)") }
        if !leftovers.isEmpty {
            let bytes = leftovers.reduce(0) { $0 + $1.bytes }
            lines.append("\(leftovers.count) leftover file\(leftovers.count == 1 ? "" : "s") of interrupted writes (\(ByteFormat.string(bytes))):")
            for leftover in leftovers { lines.append("  \(leftover.kind.padding(toLength: 16, withPad: " ", startingAt: 0)) \(leftover.path)") }
        }
        if repaired {
            if issues.isEmpty && leftovers.isEmpty {
                lines.append("Nothing needed repairing.")
            } else {
                lines.append("Repaired: dropped \(issues.count) broken entr\(issues.count == 1 ? "y" : "ies") and removed \(leftovers.count) leftover file\(leftovers.count == 1 ? "" : "s").")
            }
        } else if !issues.isEmpty {
            lines.append("The index does not match the files. Run `petspot cache verify --repair` to drop the broken entries (add those photos again) and remove the leftovers.")
        } else if !leftovers.isEmpty {
            lines.append("The index matches the files. `petspot cache prune` or `petspot cache verify --repair` removes the leftovers.")
        } else {
            lines.append("The cache is clean.")
        }
        return lines.joined(separator: "\n")
    }
}
