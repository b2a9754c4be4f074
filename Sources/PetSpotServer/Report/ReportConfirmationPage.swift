import PetSpot

/// `GET /report/sent/{id}`: the report is published. Right after the form's post (its receipt
/// cookie present) it shows the management password, once, and what it is for; afterwards the
/// same page without it. Either way it links the pet's page, its flyers and its share card.
enum ReportConfirmationPage {
    static func html(id: AnnouncementID, title: String, receipt: ReportReceipt?) -> HTML {
        let path = "/pets/\(id.rawValue)"
        let password: HTML
        if let receipt {
            let changed: HTML = receipt.changedSince
                ? "<p class=\"notice\">This report had already been sent from this form, so the changes made after that were not saved. Use the password to change the report.</p>\n"
                : .empty
            password = """
                <div class="panel">
                <h1>Your report is published</h1>
                <p>Your management password is</p>
                <p class="password">\(receipt.password)</p>
                </div>
                \(changed)<p><strong>Write it down or save it now: it is shown only this once</strong>, and nobody can look it up for you, not even us.</p>
                <h2>What the password is for</h2>
                <p>With it you can change this report, mark it as reunited when the pet is home again, or take it down: choose “Manage this report” on the report’s page and type it there. Keep it to yourself: whoever has it can do all of that.</p>

                """
        } else {
            password = """
                <h1>Your report is published</h1>
                <p class="notice">Its management password was shown once, right after you sent the report, and is not shown again.</p>

                """
        }
        return PageLayout.document(title: "Report published · PetSpot", description: "\(title): the report is published.", meta: FormStyle.link, body: """
            <div class="form-page">
            \(password)<h2>Spread the word</h2>
            <ul>
            <li><a href="\(path)">See the report: \(title)</a></li>
            <li>Print a flyer: <a href="\(path)/flyer.pdf">A4</a> · <a href="\(path)/flyer.pdf?paper=letter">US Letter</a></li>
            <li><a href="\(path)/card.jpg">Picture to share</a> on social media or by message</li>
            </ul>
            <p><a href="/report">Report another pet</a></p>
            </div>

            """)
    }
}
