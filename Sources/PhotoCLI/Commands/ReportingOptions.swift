import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How much a command says, and in which shape: the same three flags on every command that
/// reports on work it did.
package struct ReportingOptions: ParsableArguments {
    package init() {}

    @Flag(help: "Print JSON for scripts instead of lines for people.")
    package var json = false

    @Flag(name: .shortAndLong, help: "Also print details on stderr: timings, decode sizes, which rule chose a folder.")
    package var verbose = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors (the exit code tells the outcome).")
    package var quiet = false

    package func validate() throws {
        if quiet && (json || verbose) {
            throw ValidationError("--quiet prints nothing but errors; it cannot be combined with \(json ? "--json" : "--verbose").")
        }
    }
}

/// `--jobs`, for the commands that work on several photos at once.
package struct JobsOption: ParsableArguments {
    package init() {}

    @Option(name: .customLong("jobs"), parsing: .unconditional,
            help: "Photos worked on at once, 1–1024; defaults to the number of cores.")
    package var count: Int = JobsOption.cores

    /// The cores this process may use (its CPU quota counted), read once: Foundation reads the
    /// cgroup's files for it at every call. The default of `--jobs`.
    package static let cores = ProcessInfo.processInfo.activeProcessorCount

    package func validate() throws {
        try NumericOption.check("--jobs", count, in: 1...1024)
    }
}
