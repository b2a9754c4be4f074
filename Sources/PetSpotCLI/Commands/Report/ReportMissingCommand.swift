import ArgumentParser
import PetSpot
import PhotoCLI

/// `petspot report missing [field flags]`
struct ReportMissingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "missing",
        abstract: "Fill in the report of a missing pet: chip number, photo (optional), description, contact.",
        discussion: ReportFillingHelp.discussion)

    @OptionGroup(title: "Report fields")
    var fields: ReportFieldOptions

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
        try ReportFilling<MissingReportDraft>.checkLocationSource(fields: fields, noInput: noInput)
    }

    func run() async throws {
        try ReportFilling<MissingReportDraft>(
            edits: fields.edits, photoPath: fields.photo, locationFromPhoto: fields.locationFromPhoto,
            interactive: !noInput && Terminal.stdinIsTerminal, state: state, cache: cache, pipeline: pipeline,
            reporting: reporting
        ).run()
    }
}
