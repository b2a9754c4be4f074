import ArgumentParser
import PetSpotVersion
import PhotoPipeline

/// The command lines the small `petspot` reads without ArgumentParser.
///
/// ArgumentParser learns a command's options by reflecting on it (Mirror, generic metadata
/// built from mangled names, a scan of every protocol conformance in the binary per new type):
/// 2.8 ms of a 50 ms `photo prepare`, and most of `petspot --version`. A script's command line
/// is plain, though, and is read here directly: `--version` alone, or `photo prepare` / `photo
/// inspect` with known long options (`--name value`, `--name=value`), `-o`, `-v`, `-q`, file
/// names, and `--` before file names.
///
/// Anything else goes to ArgumentParser, which reads it (or says what is wrong) in its own words:
/// help, bundled short flags (`-vq`), an option given twice or unknown, a missing or empty value,
/// a value starting with `-` (other than `-` itself), a value that does not convert, and a command
/// line that does not validate. Each option is read with the same conversion and default as its
/// declaration (``PipelineOptions/Values``, ``PipelineOptions/Defaults``), and tests read every
/// plain command line both ways and compare what each command got.
package enum QuickCommandLine {
    package enum Command {
        /// `--version`: the text to print (the root command's version, without building its configuration).
        case version(String)
        case prepare(PrepareRequest)
        case inspect(InspectCommand)
    }

    /// What `arguments` (the command line after `petspot`) run, parsed and validated; `nil`:
    /// ArgumentParser's to read.
    package static func read(_ arguments: [String]) -> Command? {
        if arguments == ["--version"] { return .version(PetSpotVersion.current) }
        guard arguments.count >= 2, arguments[0] == "photo" else { return nil }
        let rest = Array(arguments.dropFirst(2))
        switch arguments[1] {
        case "prepare":
            guard var tokens = QuickTokens(rest, flags: PrepareCommand.quickFlags, values: PrepareCommand.quickValues),
                  let request = try? PrepareRequest(quick: &tokens) else { return nil }
            return .prepare(request)
        case "inspect":
            guard var tokens = QuickTokens(rest, flags: InspectCommand.quickFlags, values: []),
                  let command = try? InspectCommand(quick: &tokens) else { return nil }
            return .inspect(command)
        default:
            return nil
        }
    }
}

/// A plain command line split into options and file names, for ``QuickCommandLine``; `nil` for
/// anything it does not read exactly as ArgumentParser would.
struct QuickTokens {
    /// Options given, by long name, with their values (`nil` for a flag). A short list: searched
    /// in order (a dictionary's first use costs more than the whole search).
    private var options: [(name: String, value: String?)] = []
    private(set) var operands: [String] = []

    /// Short names of the options that have one.
    private static let shortNames = [("-o", "--output"), ("-v", "--verbose"), ("-q", "--quiet")]

    init?(_ arguments: [String], flags: [String], values: [String]) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                operands += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                operands.append(argument)
                continue
            }
            var name = argument, value: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            } else if !argument.hasPrefix("--") {
                guard let long = Self.shortNames.first(where: { $0.0 == argument })?.1 else { return nil }
                name = long
            }
            guard !options.contains(where: { $0.name == name }) else { return nil }
            if flags.contains(name) {
                guard value == nil else { return nil }
                options.append((name, nil))
            } else if values.contains(name) {
                if value == nil, index < arguments.count {
                    value = arguments[index]
                    index += 1
                }
                guard let value, !value.isEmpty, value == "-" || !value.hasPrefix("-") else { return nil }
                options.append((name, value))
            } else {
                return nil
            }
        }
    }

    /// Whether flag `name` was given.
    mutating func flag(_ name: String) -> Bool {
        take(name) != nil
    }

    /// The value of option `name`, converted; `nil` if it was not given.
    mutating func value<T>(_ name: String, _ convert: (String) throws -> T?) throws -> T? {
        guard let given = take(name) else { return nil }
        guard let text = given, let value = try convert(text) else { throw QuickTokens.NotPlain() }
        return value
    }

    private mutating func take(_ name: String) -> String?? {
        guard let index = options.firstIndex(where: { $0.name == name }) else { return nil }
        return options.remove(at: index).value
    }

    /// Every option was taken by a property.
    var isEmpty: Bool { options.isEmpty }

    struct NotPlain: Error {}
}

extension PrepareCommand {
    static let quickFlags = ["--force", "--progressive", "--lossless", "--json", "--verbose", "--quiet"]
    static let quickValues = ["--output", "--out-dir", "--format", "--max-dimension", "--quality", "--max-bytes", "--background",
                              "--max-megapixels", "--max-input-bytes", "--max-icc-bytes", "--decode-headroom", "--jobs"]

    /// Every option the quick reader knows.
    package static var quickNames: Set<String> { Set(quickFlags + quickValues) }
}

extension PrepareRequest {
    /// Every value read from `tokens` (a plain request: no property wrappers are built), then
    /// validated as ArgumentParser validates the command: each group, then the command.
    init(quick tokens: inout QuickTokens) throws {
        self.init()
        files = tokens.operands
        output = try tokens.value("--output") { $0 }
        force = tokens.flag("--force")
        outDir = try tokens.value("--out-dir") { $0 }
        format = try tokens.value("--format", OutputFormat.init(argument:))
        pipeline.maxDimension = try tokens.value("--max-dimension", Int.init(argument:)) ?? PipelineOptions.Defaults.maxDimension
        pipeline.quality = try tokens.value("--quality", Int.init(argument:)) ?? PipelineOptions.Defaults.quality
        pipeline.maxBytes = try tokens.value("--max-bytes", PipelineOptions.Values.maxBytes)
        pipeline.progressive = tokens.flag("--progressive")
        pipeline.lossless = tokens.flag("--lossless")
        pipeline.background = try tokens.value("--background", PipelineOptions.Values.background) ?? PipelineOptions.Defaults.background
        pipeline.maxMegapixels = try tokens.value("--max-megapixels", Double.init(argument:)) ?? PipelineOptions.Defaults.maxMegapixels
        pipeline.maxInputBytes = try tokens.value("--max-input-bytes", PipelineOptions.Values.maxInputBytes)
            ?? PipelineOptions.Defaults.maxInputBytes
        pipeline.maxICCBytes = try tokens.value("--max-icc-bytes", PipelineOptions.Values.maxICCBytes) ?? PipelineOptions.Defaults.maxICCBytes
        pipeline.decodeHeadroom = try tokens.value("--decode-headroom", Double.init(argument:)) ?? PipelineOptions.Defaults.decodeHeadroom
        jobs = try tokens.value("--jobs", Int.init(argument:)) ?? JobsOption.cores
        json = tokens.flag("--json")
        verbose = tokens.flag("--verbose")
        quiet = tokens.flag("--quiet")
        guard tokens.isEmpty else { throw QuickTokens.NotPlain() }
        try validateAll()
    }
}

extension InspectCommand {
    static let quickFlags = ["--json"]
    package static var quickNames: Set<String> { Set(quickFlags) }

    init(quick tokens: inout QuickTokens) throws {
        self.init()
        files = tokens.operands
        json = tokens.flag("--json")
        guard tokens.isEmpty else { throw QuickTokens.NotPlain() }
        try validate()
    }
}
