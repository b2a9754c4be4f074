import ArgumentParser
import PetSpot
import PetSpotClient
import PhotoCLI

/// `petspot report found [field flags]`
struct ReportFoundCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "found",
        abstract: "Fill in the report of a found pet: photo (mandatory), pet details, contact.",
        discussion: ReportFillingHelp.discussion)

    @OptionGroup(title: "Report fields")
    var fields: ReportFieldOptions

    @OptionGroup(title: "Found report fields")
    var foundFields: FoundFieldOptions

    @Option(help: ArgumentHelp("The server --place is looked up on (default: $PETSPOT_SERVER, else \(ClientConfiguration.defaultServer)).",
                               valueName: "url"))
    var server: String?

    @Flag(help: "Never ask; only apply the flags (always so when stdin is not a terminal).")
    var noInput = false

    @OptionGroup(title: "Drafts")
    var state: StateOptions

    @OptionGroup(title: "Photo cache")
    var cache: CacheOptions

    @OptionGroup(title: "Photo preparation")
    var pipeline: PipelineOptions

    @OptionGroup var reporting: ReportingOptions

    func validate() throws {
        try ReportFilling<FoundReportDraft>.checkLocationSource(fields: fields, noInput: noInput)
    }

    func run() async throws {
        // A --place that cannot be looked up keeps nothing for the location; the other fields
        // are saved all the same, and the command ends unsuccessful.
        let placed = await fields.placeEdits(server: server, near: ReportFilling<FoundReportDraft>.savedPosition(state: state))
        let edits = fields.edits + foundFields.edits + placed.edits
        if let failure = placed.failure, edits.isEmpty, fields.photo == nil { throw failure.exitCode }
        try ReportFilling<FoundReportDraft>(
            edits: edits, photoPath: fields.photo,
            locationFromPhoto: fields.locationFromPhoto,
            interactive: !noInput && Terminal.stdinIsTerminal, state: state, cache: cache, pipeline: pipeline,
            reporting: reporting, server: server
        ).run()
        if let failure = placed.failure { throw failure.exitCode }
    }
}
