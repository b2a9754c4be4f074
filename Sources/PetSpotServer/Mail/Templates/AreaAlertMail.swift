import Foundation
import PetSpot

/// A new report in an area the reader follows (each one, or a day's in one message): photo,
/// what, where, when, the link. Unsubscribe in every one.
struct AreaAlertMail: MailTemplate {
    static var kind: OutboxItem.Kind { .areaAlert }

    let subscription: AlertSubscription
    /// Newest first.
    let reports: [PetDetails]
    let base: String
    let unsubscribeURL: String?

    var subject: String {
        guard reports.count == 1, let report = reports.first else { return "\(reports.count) new reports near \(subscription.place)" }
        return "\(report.isFoundReport ? "Found" : "Missing"): \(PetPage.title(report)) near \(subscription.place)"
    }

    private func url(_ report: PetDetails) -> String { "\(base)/pets/\(report.id.rawValue)" }

    private func line(_ report: PetDetails) -> String {
        "\(report.isFoundReport ? "Found" : "Missing"): \(PetPage.title(report)), \(PetPage.placeText(report)), "
            + "\(report.isFoundReport ? "found" : "last seen") \(report.lastSeenDate.displayString)"
    }

    var text: String {
        let intro = reports.count == 1 ? "A new report among \(subscription.areaDescription):"
            : "\(reports.count) new reports among \(subscription.areaDescription):"
        return ([intro] + reports.map { "\n" + line($0) + "\n" + url($0) }).joined(separator: "\n")
    }

    var html: HTML {
        let items = reports.map { report -> HTML in
            """
            <div style="margin:0 0 20px">\(MailPhoto(details: report, href: url(report)).html)
            <p style="margin:6px 0 0"><a href="\(url(report))"><strong>\(report.isFoundReport ? "Found" : "Missing"): \(PetPage.title(report))</strong></a><br>\
            \(PetPage.placeText(report))<br>\(report.isFoundReport ? "Found" : "Last seen") \(report.lastSeenDate.displayString)</p></div>

            """
        }
        return """
            <h1 style="\(MailLayout.heading)">\(reports.count == 1 ? "A new report near \(subscription.place)" : "\(reports.count) new reports near \(subscription.place)")</h1>
            <p>Among \(subscription.areaDescription):</p>
            \(items)
            """
    }

    var reason: String {
        "You get this because you follow \(subscription.areaDescription) on PetSpot (\(subscription.cadence == .each ? "each new report" : "a daily digest"))."
    }
}

/// A day's new reports in a followed area, in one message.
struct AreaDigestMail: MailTemplate {
    static var kind: OutboxItem.Kind { .areaDigest }

    let alert: AreaAlertMail

    var subject: String { alert.reports.count == 1 ? "Today near \(alert.subscription.place): " + alert.subject : alert.subject }
    var text: String { alert.text }
    var html: HTML { alert.html }
    var reason: String { alert.reason }
    var unsubscribeURL: String? { alert.unsubscribeURL }
}
