import ArgumentParser
import Foundation
import Mail
import PetSpotServer

/// `--smtp-url`, `--mail-from` and the rest: how `serve` sends mail (none without them).
struct MailOptions: ParsableArguments {
    @Option(name: .customLong("smtp-url"), help: ArgumentHelp(
        "Send mail through this relay: smtp://USER:PASSWORD@HOST:587 (STARTTLS required), smtps://USER:PASSWORD@HOST:465 (TLS), or smtp://127.0.0.1:25?tls=none (a relay on this machine, no TLS).",
        discussion: "Prefer PETSPOT_SMTP_URL, and the password in --smtp-password-file: a command line is visible to every user of the machine. USER and PASSWORD are percent-encoded (%40 for @). Without it the server sends no mail and its pages say which features need it: possible-match mail, report confirmations, area alerts."))
    var smtpURL: String?

    @Option(name: .customLong("smtp-password-file"), help: "A file whose first line is the relay's password (instead of one in --smtp-url).")
    var smtpPasswordFile: String?

    @Option(name: .customLong("smtp-ca-file"), help: ArgumentHelp(
        "A PEM file with the CA that signed the relay's certificate (default: the system's CAs).",
        discussion: "For a relay with a private CA or a self-signed certificate. The relay's certificate must still name its host."))
    var smtpCAFile: String?

    @Option(name: .customLong("mail-from"), help: "The sender of the server's mail: alerts@pets.example.org, or \"PetSpot <alerts@pets.example.org>\".")
    var mailFrom: String?

    @Option(name: .customLong("mail-retry-delays"), help: ArgumentHelp(
        "How long a deferred message waits before each next attempt, the last repeating: e.g. 1m,2m,5m,10m,20m,40m,1h.",
        discussion: "A 4xx answer, a relay that cannot be reached or one that breaks off defers a message; units ms, s, m, h."))
    var mailRetryDelays = "1m,2m,5m,10m,20m,40m,1h"

    @Option(name: .customLong("mail-give-up-after"), help: "How long after it was queued a deferred message is given up and recorded as failed.")
    var mailGiveUpAfter = "24h"

    @Option(name: .customLong("mail-poll-interval"), help: ArgumentHelp(
        "How often this replica looks for mail other replicas queued.", discussion: "Mail this replica queues is sent at once."))
    var mailPollInterval = "5s"

    @Option(name: .customLong("mail-photo-grace"), help: ArgumentHelp(
        "How long mail about a report created without a photo waits for it.",
        discussion: "The app creates a report, then uploads its photo: a match mail or an area alert sent in between would show none."))
    var mailPhotoGrace = "2m"

    func validate() throws {
        guard (smtpURL == nil) == (mailFrom == nil) else {
            throw ValidationError("--smtp-url and --mail-from go together: give both to send mail, or neither.")
        }
        guard RetrySchedule.parseDelays(mailRetryDelays) != nil else {
            throw ValidationError("--mail-retry-delays must be durations separated by commas, such as 1m,5m,1h (got \(mailRetryDelays.prefix(60))).")
        }
        guard RetrySchedule.parseDuration(mailGiveUpAfter) != nil, RetrySchedule.parseDuration(mailPollInterval) != nil,
              mailPhotoGrace == "0" || RetrySchedule.parseDuration(mailPhotoGrace) != nil else {
            throw ValidationError("--mail-give-up-after, --mail-poll-interval and --mail-photo-grace must be durations such as 24h, 5s or 2m.")
        }
    }

    /// The settings, or `nil` without `--smtp-url`.
    /// - Throws: exit 78 (EX_CONFIG) with the reason on standard error, never the password.
    func settings() throws -> MailSettings? {
        guard let smtpURL, let mailFrom else { return nil }
        do {
            let relay = try SMTPRelay(url: smtpURL, passwordFile: smtpPasswordFile, caFile: smtpCAFile)
            var settings = MailSettings(relay: relay, sender: try MailAddress(parsing: mailFrom))
            settings.retry = RetrySchedule(delays: RetrySchedule.parseDelays(mailRetryDelays) ?? RetrySchedule.standard.delays,
                                           giveUpAfter: RetrySchedule.parseDuration(mailGiveUpAfter) ?? .seconds(86400))
            settings.pollInterval = RetrySchedule.parseDuration(mailPollInterval) ?? .seconds(5)
            settings.photoGrace = RetrySchedule.parseDuration(mailPhotoGrace) ?? .zero
            return settings
        } catch {
            throw ConfigurationFailure.report(error)
        }
    }
}
