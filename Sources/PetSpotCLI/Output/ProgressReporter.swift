import Foundation

/// A progress bar on a terminal; plain lines otherwise. Errors always go to stderr.
final class ProgressReporter {
    private let total: Int
    private let enabled: Bool
    private var done = 0

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    func completed(_ result: PrepareResult, json: Bool) {
        done += 1
        if let error = result.error {
            if enabled { Terminal.clearStatus() }
            Terminal.error("error: \(result.input): \(error.message)")
        } else if !json {
            if enabled { Terminal.clearStatus() }
            Terminal.out(result.line)
        }
        if enabled {
            let width = 30
            let filled = total == 0 ? width : done * width / total
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            Terminal.status("\(bar) \(done)/\(total)")
        }
    }

    func finish() {
        if enabled { Terminal.clearStatus() }
    }
}
