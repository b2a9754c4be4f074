import ArgumentParser
import Foundation
import PhotoCLI
import PhotoPipeline
import Testing

/// The small binary reads plain `photo prepare` / `photo inspect` command lines without
/// ArgumentParser (issue 23 §3). Whatever it reads, ArgumentParser must read the same way, with
/// every option's value and default; what it does not read, ArgumentParser still does.
@Suite struct QuickCommandLineTests {
    /// Both ways, as text naming every property; `nil` for a side that does not read it. The
    /// parsed command's plain request (what it runs) is checked against its properties too.
    static func both(_ arguments: [String]) -> (quick: String?, parser: String?) {
        let quick: String? = switch QuickCommandLine.read(arguments) {
        case .prepare(let request)?: describe(request)
        case .inspect(let command)?: describe(command)
        case .version(let text)?: "version \(text)"
        case nil: nil
        }
        let parsed = try? PhotoCommandsRoot.parseAsRoot(arguments)
        if let command = parsed as? PrepareCommand {
            #expect(describe(command.request) == describe(command), "the request of \(arguments) is not its command's properties")
        }
        let parser: String? = switch parsed {
        case let command as PrepareCommand: describe(command.request)
        case let command as InspectCommand: describe(command)
        default: nil
        }
        return (quick, parser)
    }

    static func describe(_ c: PrepareRequest) -> String {
        let p = c.pipeline
        return describe(files: c.files, output: c.output, force: c.force, outDir: c.outDir, format: c.format,
                        pipeline: [p.maxDimension, p.quality, p.maxBytes as Any, p.progressive, p.lossless, p.background,
                                   p.maxMegapixels, p.maxInputBytes, p.maxICCBytes, p.decodeHeadroom],
                        jobs: c.jobs, json: c.json, verbose: c.verbose, quiet: c.quiet)
    }

    /// From the command's own properties (ArgumentParser's property wrappers).
    static func describe(_ c: PrepareCommand) -> String {
        let p = c.pipeline, r = c.report
        return describe(files: c.files, output: c.output, force: c.force, outDir: c.outDir, format: c.format,
                        pipeline: [p.maxDimension, p.quality, p.maxBytes as Any, p.progressive, p.lossless, p.background,
                                   p.maxMegapixels, p.maxInputBytes, p.maxICCBytes, p.decodeHeadroom],
                        jobs: c.jobs.count, json: r.json, verbose: r.verbose, quiet: r.quiet)
    }

    static func describe(files: [String], output: String?, force: Bool, outDir: String?, format: OutputFormat?, pipeline: [Any],
                         jobs: Int, json: Bool, verbose: Bool, quiet: Bool) -> String {
        let names = ["maxDimension", "quality", "maxBytes", "progressive", "lossless", "background", "maxMegapixels",
                     "maxInputBytes", "maxICCBytes", "decodeHeadroom"]
        let fields: [String] = [
            "files=\(files)", "output=\(String(describing: output))", "force=\(force)", "outDir=\(String(describing: outDir))",
            "format=\(String(describing: format))",
        ] + zip(names, pipeline).map { "\($0)=\($1)" } + ["jobs=\(jobs)", "json=\(json)", "verbose=\(verbose)", "quiet=\(quiet)"]
        return "prepare " + fields.joined(separator: " ")
    }

    static func describe(_ c: InspectCommand) -> String {
        "inspect files=\(c.files) json=\(c.json)"
    }

    @Test("plain command lines read the same both ways", arguments: [
        ["photo", "prepare", "a.jpg", "-o", "b.jpg"],
        ["photo", "prepare", "a.jpg", "--output", "b.webp", "--force", "--quality", "70", "--max-dimension", "1024"],
        ["photo", "prepare", "--output=b.jpg", "a.jpg", "-q", "--progressive", "--max-bytes", "500KB"],
        ["photo", "prepare", "a.jpg", "b.png", "--out-dir", "out=dir", "--format", "webp", "--lossless", "--jobs", "3", "--json"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--background", "#102030", "--max-megapixels", "12.5",
         "--max-input-bytes", "10MiB", "--max-icc-bytes", "64KiB", "--decode-headroom", "2", "-v"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--decode-headroom=0", "--quality=+90", "--max-dimension", "007"],
        ["photo", "prepare", "-o", "b.jpg", "--", "-dashed.jpg"],
        ["photo", "prepare", "a.jpg", "--out-dir", "folder", "--verbose", "--", "b.jpg"],
        ["photo", "inspect", "a.jpg", "b.heic"],
        ["photo", "inspect", "--json", "a.jpg"],
        ["photo", "inspect", "--", "-a.jpg"],
    ])
    func readsPlainLinesAsArgumentParserDoes(arguments: [String]) {
        let (quick, parser) = Self.both(arguments)
        #expect(quick != nil, "the quick reader left a plain command line to ArgumentParser")
        #expect(quick == parser)
    }

    @Test("the rest is ArgumentParser's to read or refuse", arguments: [
        ["photo", "prepare", "a.jpg", "-vq", "-o", "b.jpg"],              // bundled short flags
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "-o", "c.jpg"],      // given twice
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--qualty", "70"],   // unknown
        ["photo", "prepare", "a.jpg", "-o"],                              // no value
        ["photo", "prepare", "a.jpg", "--output="],                       // empty value
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--quality", "-5"],  // a value starting with -
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--quality", "high"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--quality", "0"],   // does not validate
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--max-bytes", "lots"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--background", "mauve"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--force=true"],
        ["photo", "prepare", "a.jpg", "-o", "b.jpg", "--quiet", "--json"],
        ["photo", "prepare", "a.jpg", "b.jpg", "-o", "c.jpg"],
        ["photo", "prepare", "a.jpg"],
        ["photo", "prepare", "-o", "b.jpg"],
        ["photo", "prepare", "a.jpg", "-o", "b.txt"],
        ["photo", "prepare", "a.jpg", "-o", "b.png", "--progressive"],
        ["photo", "inspect"],
        ["photo", "inspect", "a.jpg", "--verbose"],
        ["photo", "add", "a.jpg"],
        ["--version", "photo"],
    ])
    func leavesTheRestToArgumentParser(arguments: [String]) {
        #expect(QuickCommandLine.read(arguments) == nil)
    }

    /// Command lines drawn at random from every option, value shape and file name: whatever the
    /// quick reader takes, ArgumentParser reads the same way.
    @Test func randomCommandLinesReadTheSameWhereverTheQuickReaderTakesThem() {
        var generator = CommandLineDice(seed: 23)
        let valued: [(String, [String])] = [
            ("-o", ["b.jpg", "b.webp", "b.png", "-", "b", "b.txt"]), ("--output", ["b.jpg", "c.webp"]),
            ("--out-dir", ["out", "a=b"]), ("--format", ["jpeg", "webp", "png", "gif", "JPEG"]),
            ("--max-dimension", ["1", "2048", "0", "65535", "65536", "+5", "x"]), ("--quality", ["1", "85", "100", "101", "07"]),
            ("--max-bytes", ["500KB", "1MiB", "750000", "0", "1.5MB", "x"]), ("--background", ["white", "black", "#fff", "#A0B0C0", "red"]),
            ("--max-megapixels", ["0.5", "100", "1e2", "0", "nan", "100000", "100001"]),
            ("--max-input-bytes", ["50MB", "1", "10GiB"]), ("--max-icc-bytes", ["64KiB", "1MiB", "2MiB"]),
            ("--decode-headroom", ["0", "1", "1.5", "0.5", "64", "65"]), ("--jobs", ["1", "2", "1024", "0", "1025"]),
        ]
        let flags = ["--force", "--progressive", "--lossless", "--json", "--verbose", "-v", "--quiet", "-q"]
        let files = ["a.jpg", "b c.heic", "-", "x=y.png", "ü.webp", "-hamster.jpg", "--", "-5"]
        var taken = 0
        for _ in 0..<600 {
            var arguments = ["photo", "prepare"]
            var tail: [String] = []
            for _ in 0..<generator.next(upTo: 6) {
                switch generator.next(upTo: 4) {
                case 0: tail.append(flags[generator.next(upTo: flags.count)])
                case 1: tail.append(files[generator.next(upTo: files.count)])
                default:
                    let (name, values) = valued[generator.next(upTo: valued.count)]
                    let value = values[generator.next(upTo: values.count)]
                    if name.hasPrefix("--"), generator.next(upTo: 2) == 0 { tail.append("\(name)=\(value)") } else { tail += [name, value] }
                }
            }
            arguments += tail
            let (quick, parser) = Self.both(arguments)
            if let quick {
                taken += 1
                #expect(quick == parser, "\(arguments)")
                // The quick reader runs before the precheck: it must take nothing the precheck refuses.
                #expect(ArgumentPrecheck.problem(in: Array(arguments), root: PhotoCommandsRoot.self) == nil, "\(arguments)")
            }
        }
        // The quick reader took a fair share of them (most random lines do not validate).
        #expect(taken > 15, "only \(taken) of 600 taken")
    }

    /// A new option on `photo prepare` or `photo inspect` must be read by the quick reader too
    /// (a property it leaves unset would stop the command when read): every option ArgumentParser
    /// knows for them, by `--experimental-dump-help`, is one the quick reader knows.
    @Test func everyOptionOfTheTwoCommandsIsOneTheQuickReaderKnows() async throws {
        for (command, known) in [("prepare", PrepareCommand.quickNames), ("inspect", InspectCommand.quickNames)] {
            let dump = try await CLIRunner.petspot(["photo", command, "--experimental-dump-help"])
            #expect(dump.exitCode == 0, "\(dump)")
            let json = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
            let arguments = (json?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? []
            let names = arguments.filter { ($0["kind"] as? String) != "positional" }.compactMap { argument -> String? in
                let long = (argument["names"] as? [[String: Any]])?.first { ($0["kind"] as? String) == "long" }
                return (long?["name"] as? String).map { "--" + $0 }
            }.filter { !["--help", "--version", "--help-hidden"].contains($0) }
            #expect(names.count >= (command == "prepare" ? 18 : 1), "\(names)")
            #expect(Set(names).subtracting(known).isEmpty, "\(command): \(Set(names).subtracting(known)) not read by QuickCommandLine")
        }
    }

    /// Through the binary: a plain line is prepared; a line the quick reader leaves gets
    /// ArgumentParser's own message and exit status.
    @Test func theBinaryRunsPlainLinesAndArgumentParserReportsTheRest() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let output = folder.appendingPathComponent("out.jpg").path
            let input = PhotoFixtures.testImage("sample-photo.jpg")
            let plain = try await CLIRunner.petspot(["photo", "prepare", input, "-o", output, "--max-dimension=64", "--json"])
            #expect(plain.exitCode == 0, "\(plain)")
            let records = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [[String: Any]]
            let (width, height) = (records?.first?["width"] as? Int ?? 0, records?.first?["height"] as? Int ?? 0)
            #expect(max(width, height) == 64, "\(plain)")
            let bad = try await CLIRunner.petspot(["photo", "prepare", input, "-o", output, "--force", "--quality", "0"])
            #expect(bad.exitCode == 64, "\(bad)")
            #expect(bad.stderr.contains("--quality") && bad.stderr.contains("Usage:"), "\(bad)")
            let version = try await CLIRunner.petspot(["--version"])
            let full = try await CLIRunner.run(try CLIRunner.petspotURL().deletingLastPathComponent().appendingPathComponent(FullBinary.name),
                                               ["--version"])
            #expect(version.exitCode == 0 && full.exitCode == 0 && version.stdout == full.stdout && !version.stdout.isEmpty,
                    "\(version) \(full)")
            let dashed = try await CLIRunner.petspot(["photo", "prepare", "-" + PhotoFixtures.testImage("sample-photo.jpg"), "-o", output])
            #expect(dashed.exitCode == 64 && dashed.stderr.contains("starts with '-'"), "\(dashed)")
            let bundled = try await CLIRunner.petspot(["photo", "prepare", input, "-o", output, "--force", "-vq"])
            #expect(bundled.exitCode == 64, "\(bundled)")
            #expect(bundled.stderr.contains("--quiet"), "\(bundled)")
        }
    }
}

/// Knuth's MMIX linear congruential generator: the same command lines on every run.
struct CommandLineDice {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(upTo bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
