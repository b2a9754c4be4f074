import Foundation
import PetSpotClient
import Synchronization
import PhotoCLI

/// The photo step's progress on a terminal: bytes sent of the total and the rate, redrawn in
/// place on stderr at most ten times a second. Silent when not a terminal.
final class UploadProgressLine: Sendable {
    private let enabled: Bool
    private let state = Mutex<(start: ContinuousClock.Instant, lastDrawn: ContinuousClock.Instant?, drawn: Bool, finished: Bool)>(
        (.now, nil, false, false))

    init(enabled: Bool) {
        self.enabled = enabled
    }

    func show(_ event: Submitter.Event) {
        guard enabled else { return }
        switch event {
        case .uploading:
            state.withLock { $0.start = .now }
        case .uploadProgress(let sent, let total):
            let line: String? = state.withLock { state in
                // A late report (the upload's drain runs beside it) never redraws a cleared line.
                guard !state.finished else { return nil }
                let now = ContinuousClock.now
                if let last = state.lastDrawn, now - last < .milliseconds(100), sent < total { return nil }
                state.lastDrawn = now
                state.drawn = true
                let seconds = max(0.001, Double((now - state.start).components.attoseconds) / 1e18 + Double((now - state.start).components.seconds))
                let percent = total > 0 ? Int(Double(sent) / Double(total) * 100) : 100
                return "Uploading photo: \(Self.megabytes(sent)) of \(Self.megabytes(total)) (\(percent)%), \(Self.megabytes(Int64(Double(sent) / seconds)))/s"
            }
            if let line { Terminal.status(line) }
        default:
            break
        }
    }

    /// Clears the line (before another line is printed); later progress draws it again.
    func finish() {
        guard enabled, state.withLock({ $0.drawn }) else { return }
        Terminal.clearStatus()
    }

    /// Clears the line for good: the submission is over.
    func end() {
        state.withLock { $0.finished = true }
        finish()
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

/// `--verbose` lines for each step, attempt and retry (never a password or a header).
enum SubmissionEvents {
    static func log(_ event: Submitter.Event) {
        switch event {
        case .resuming(let record): Terminal.error("resuming submission \(record.id): \(record.state.sentence)")
        case .movedServer(let from, let to): Terminal.error("moved from \(from) to \(to)")
        case .creating(let attempt): Terminal.error("creating the announcement (attempt \(attempt))")
        case .created(let id): Terminal.error("created announcement \(id)")
        case .uploading(let attempt, let total): Terminal.error("uploading the photo, \(total) bytes (attempt \(attempt))")
        case .uploadProgress: break
        case .retrying(let step, let attempt, let wait, let cause):
            Terminal.error("\(step.rawValue) step failed: \(cause.detail) — attempt \(attempt) in \(wait.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
        case .photoPreparedAgain(let from, let to, let limit, let width, let height):
            Terminal.error("the server's photo limit is \(limit) bytes: prepared the photo again, \(from) → \(to) bytes, \(width) × \(height)")
        case .completed(let url): Terminal.error("done" + (url.map { ": \($0)" } ?? ""))
        }
    }
}
