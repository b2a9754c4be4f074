#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A progress bar on a terminal; plain lines otherwise. Errors always go to stderr.
package final class ProgressReporter {
    /// Where the line of each photo done goes.
    package enum Lines {
        case stdout, stderr, none
    }

    private let total: Int
    private let enabled: Bool
    private let lines: Lines
    private var done = 0

    package init(total: Int, enabled: Bool, lines: Lines = .stdout) {
        self.total = total
        self.enabled = enabled
        self.lines = lines
    }

    package func completed(_ result: PrepareResult) {
        done += 1
        if let error = result.error {
            if enabled { Terminal.clearStatus() }
            Terminal.fileError(result.input, error.message)
        } else if lines != .none {
            if enabled { Terminal.clearStatus() }
            if lines == .stdout { Terminal.out(result.line) } else { Terminal.error(result.line) }
        }
        if enabled {
            let width = 30
            let filled = total == 0 ? width : done * width / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            Terminal.status("\(bar) \(done)/\(total)")
        }
    }

    package func finish() {
        if enabled { Terminal.clearStatus() }
    }
}
