import CoreMetrics
import Foundation

/// The outbox's metrics (`/metrics` with `--metrics-port`): `petspot_mail_messages_total{event}`
/// counts messages queued, sent, retried (each deferred attempt), failed (given up) and
/// cancelled (no longer wanted); `petspot_mail_delivery_seconds` is the time from queued to
/// sent; `petspot_mail_jobs_total{kind}` counts finished pieces of mail work (match scans,
/// area fan-outs, digests).
enum MailMetrics {
    enum Event: String {
        case queued, sent, retried, failed, cancelled
    }

    static func count(_ event: Event, by amount: Int = 1) {
        guard amount > 0 else { return }
        Counter(label: "petspot_mail_messages_total", dimensions: [("event", event.rawValue)]).increment(by: Int64(amount))
    }

    static func queued(_ amount: Int) { count(.queued, by: amount) }

    static func delivered(after seconds: TimeInterval) {
        count(.sent)
        Timer(label: "petspot_mail_delivery_seconds").recordNanoseconds(Int64(max(0, seconds) * 1e9))
    }

    static func jobFinished(_ kind: String) {
        Counter(label: "petspot_mail_jobs_total", dimensions: [("kind", kind)]).increment()
    }
}
