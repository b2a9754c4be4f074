/// `GET /report`: the person says which report they make — "I lost my pet" or "I found a pet" —
/// each a link to its form.
enum ReportChoicePage {
    static var html: HTML {
        PageLayout.document(title: "Report a pet · PetSpot", description: "Report a pet you lost or a pet you found.", meta: FormStyle.link, body: """
            <div class="form-page">
            <h1>Report a pet</h1>
            <p class="lede">Your report is published on this site for everyone nearby to see. It takes a few minutes, on a phone too.</p>
            <div class="choices">
            <a class="choice" href="\(MissingReportForm.path)"><strong>I lost my pet</strong> Report your missing pet: what it looks like, where it was last seen, how to reach you.</a>
            <a class="choice" href="\(FoundReportForm.path)"><strong>I found a pet</strong> Report an animal you found or are looking after, with a photo, so its owner finds it.</a>
            </div>
            </div>

            """)
    }
}
