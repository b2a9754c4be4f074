import Foundation
import TestProcesses
import PhotoCLI
import Testing

/// `petspot` runs `photo inspect`, `photo prepare` and `--version` itself and execs `petspot-full`
/// beside it for everything else. These run the real binaries.
@Suite struct SmallBinaryTests {
    @Test("which command lines the small binary keeps", arguments: [
        (["--version"], true),
        (["photo", "prepare", "a.jpg", "-o", "b.jpg"], true),
        (["photo", "inspect", "a.jpg", "--json"], true),
        (["photo", "prepare", "--", "--help"], true),
        (["photo", "prepare", "a.jpg", "--help"], false),
        (["photo", "inspect", "-h"], false),
        (["photo", "add", "a.jpg"], false),
        (["photo"], false),
        (["help", "photo", "prepare"], false),
        (["--help"], false),
        (["cache", "path"], false),
        ([], false),
    ])
    func dispatch(arguments: [String], runsHere: Bool) {
        #expect(PhotoCommandsRoot.runsHere(arguments) == runsHere)
    }

    @Test func smallBinaryLinksNoFoundationNorTheCacheOrNetwork() throws {
        let binary = try CLIRunner.petspotURL()
        let needed = try Self.neededLibraries(binary.path)
        #expect(!needed.contains { $0.hasPrefix("libFoundation.") || $0.contains("FoundationInternationalization") || $0.contains("ICU") },
                "\(needed)")
        #expect(!needed.contains { $0.hasPrefix("libsqlite3") || $0.hasPrefix("libedit") }, "\(needed)")
        // The codecs are loaded on first use (CCodecs), not linked.
        #expect(!needed.contains { $0.hasPrefix("libjpeg") || $0.hasPrefix("libturbojpeg") || $0.hasPrefix("libpng") || $0.hasPrefix("libwebp") },
                "\(needed)")
        let full = binary.deletingLastPathComponent().appendingPathComponent(FullBinary.name)
        #expect(try Self.neededLibraries(full.path).contains { $0.hasPrefix("libsqlite3") })
    }

    @Test func everyOtherCommandRunsInTheFullBinaryWithTheSameStreamsAndStatus() async throws {
        let help = try await CLIRunner.petspot(["--help"])
        #expect(help.exitCode == 0)
        #expect(help.stdout.contains("report") && help.stdout.contains("cache"), "\(help)")
        let photoHelp = try await CLIRunner.petspot(["photo", "--help"])
        #expect(photoHelp.stdout.contains("add"), "\(photoHelp)")
        let unknown = try await CLIRunner.petspot(["cache", "frobnicate"])
        #expect(unknown.exitCode == 64, "\(unknown)")
        #expect(unknown.stderr.contains("frobnicate"), "\(unknown)")
        let input = try await CLIRunner.petspot(["pet", "show"], input: "")
        #expect(input.exitCode == 64, "\(input)")
    }

    @Test func photoCommandsWorkWithoutTheFullBinaryAndTheRestSaysWhatIsMissing() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let lonely = folder.appendingPathComponent("petspot")
            try FileManager.default.copyItem(at: try CLIRunner.petspotURL(), to: lonely)
            // A child another test forks while the copy is open for writing holds that descriptor
            // until it execs; running the copy then fails with ETXTBSY for a moment.
            var attempt = 0
            var version: CLIResult
            while true {
                do {
                    version = try await CLIRunner.run(lonely, ["--version"])
                    break
                } catch let error as NSError where attempt < 100 && (error.code == ETXTBSY
                    || (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(ETXTBSY)) {
                    attempt += 1
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            #expect(version.exitCode == 0 && !version.stdout.isEmpty, "\(version)")
            let output = folder.appendingPathComponent("out.jpg").path
            let prepared = try await CLIRunner.run(lonely, ["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                            "-o", output, "--max-dimension", "64", "--quiet"])
            #expect(prepared.exitCode == 0, "\(prepared)")
            #expect(try PhotoFixtures.bytes(output).prefix(2) == [0xFF, 0xD8])
            let other = try await CLIRunner.run(lonely, ["cache", "path"])
            #expect(other.exitCode == 70, "\(other)")
            // One line: what this petspot is, what is missing, how to install it properly.
            #expect(other.stderr.split(separator: "\n").count == 1 && other.stderr.contains("petspot-full")
                && other.stderr.contains(folder.path) && other.stderr.contains("scripts/install.sh --prefix"), "\(other)")
            #expect(other.stdout.isEmpty)
        }
    }

    /// The DT_NEEDED names of an ELF file, as `readelf -d` lists them.
    static func neededLibraries(_ path: String) throws -> [String] {
        let process = try ChildProcess("/usr/bin/env", ["readelf", "-d", path], output: .pipe, error: .inherited)
        let data = process.standardOutput!.readDataToEndOfFile()
        process.waitForExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }
}

/// The codec libraries are loaded when a function of theirs is first called: a run maps only the
/// ones its photos need.
@Suite struct LazyCodecTests {
    /// The codec libraries the dynamic loader opened during a run (`LD_DEBUG=files`).
    static func codecLibraries(_ arguments: [String]) async throws -> Set<String> {
        let result = try await CLIRunner.petspot(arguments, environment: ["LD_DEBUG": "files"])
        #expect(result.exitCode == 0, "\(result)")
        let names = ["libjpeg.so", "libturbojpeg.so", "libpng16.so", "libwebp.so", "libwebpdemux.so", "libwebpmux.so", "libheif.so"]
        return Set(names.filter { name in result.stderr.split(separator: "\n").contains { $0.contains("file=\(name)") } })
    }

    @Test func eachRunLoadsOnlyTheCodecsItUses() async throws {
        #expect(try await Self.codecLibraries(["--version"]).isEmpty)
        #expect(try await Self.codecLibraries(["photo", "inspect", PhotoFixtures.testImage("sample-photo.jpg")]).isEmpty)
        try await PhotoFixtures.withScratchFolder { folder in
            let jpeg = try await Self.codecLibraries(["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                      "-o", folder.appendingPathComponent("a.jpg").path, "--quiet"])
            #expect(jpeg.contains("libjpeg.so") && !jpeg.contains("libpng16.so") && !jpeg.contains("libwebp.so"), "\(jpeg)")
            let webp = try await Self.codecLibraries(["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                      "-o", folder.appendingPathComponent("a.webp").path, "--quiet"])
            #expect(webp.contains("libwebp.so") && !webp.contains("libpng16.so"), "\(webp)")
        }
    }

    /// A run with one codec library's file replaced by an empty one, as on a machine where it is
    /// missing or broken: in a mount namespace of its own, /dev/null is bound over the library.
    static func withoutLibrary(_ soname: String, _ arguments: [String]) async throws -> CLIResult {
        let path = "/usr/lib/x86_64-linux-gnu/" + soname
        let script = "mount --bind /dev/null \"$1\" && shift && exec \"$@\""
        return try await CLIRunner.run(URL(fileURLWithPath: "/usr/bin/unshare"),
                                       ["--mount", "sh", "-c", script, "sh", path, try CLIRunner.petspotURL().path] + arguments)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libwebp.so.7")))
    func aCodecLibraryThatCannotBeLoadedFailsThatPhotoWithTheFix() async throws {
        try await PhotoFixtures.withScratchFolder { folder in
            let webp = folder.appendingPathComponent("a.webp").path
            let refused = try await Self.withoutLibrary("libwebp.so.7", ["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                                         "-o", webp, "--quiet"])
            #expect(refused.exitCode == 70, "\(refused)")
            #expect(refused.stderr.contains("libwebp.so.7 cannot be loaded") && refused.stderr.contains("apt-get install libwebp7"),
                    "\(refused)")
            #expect(!FileManager.default.fileExists(atPath: webp))
            // The same process still makes a JPEG: only libjpeg is needed for that.
            let jpeg = folder.appendingPathComponent("a.jpg").path
            let prepared = try await Self.withoutLibrary("libwebp.so.7", ["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                                          "-o", jpeg, "--quiet"])
            #expect(prepared.exitCode == 0, "\(prepared)")
            #expect(try PhotoFixtures.bytes(jpeg).prefix(2) == [0xFF, 0xD8])
            // A batch goes on past the photo that could not be made: without libjpeg a JPEG can be
            // neither read nor written (our encoder hands its coefficients to libjpeg), but a PNG is
            // still made from a PNG.
            let batch = folder.appendingPathComponent("batch")
            let both = try await Self.withoutLibrary("libjpeg.so.62", ["photo", "prepare", PhotoFixtures.testImage("sample-photo.jpg"),
                                                                        PhotoFixtures.testImage("png-rgba-alpha.png"), "--out-dir", batch.path,
                                                                        "--format", "png", "--quiet"])
            #expect(both.exitCode == 70 && both.stderr.contains("libjpeg.so.62 cannot be loaded"), "\(both)")
            #expect(!FileManager.default.fileExists(atPath: batch.appendingPathComponent("sample-photo.png").path))
            #expect(try PhotoFixtures.bytes(batch.appendingPathComponent("png-rgba-alpha.png").path).prefix(4) == [0x89, 0x50, 0x4E, 0x47])
        }
    }

    /// Every global function and variable the binaries define, against the ones the codec libraries
    /// export: none may share a name (a program that links both would get one of them for both).
    @Test func noSymbolOfOursHasACodecLibrarysName() throws {
        let libraries = ["libjpeg.so.62", "libturbojpeg.so.0", "libpng16.so.16", "libwebp.so.7", "libwebpdemux.so.2",
                         "libwebpmux.so.3", "libheif.so.1", "libde265.so.0", "libdav1d.so.6"]
        var theirs = Set<String>()
        for library in libraries {
            let path = "/usr/lib/x86_64-linux-gnu/" + library
            guard FileManager.default.fileExists(atPath: path) else { continue }
            // Their C API; the C++ runtime's template instances some of them export are not theirs.
            theirs.formUnion(try Self.definedSymbols(path, dynamic: true).filter { !$0.hasPrefix("_Z") })
        }
        #expect(theirs.contains("jpeg_read_header") && theirs.contains("WebPDecode"))
        let binary = try CLIRunner.petspotURL()
        for program in [binary, binary.deletingLastPathComponent().appendingPathComponent(FullBinary.name)] {
            let ours = try Self.definedSymbols(program.path, dynamic: false)
            #expect(ours.contains("lazy_jpeg_read_header"), "\(program.lastPathComponent) has no forwarders")
            #expect(ours.intersection(theirs).isEmpty, "\(program.lastPathComponent): \(ours.intersection(theirs).sorted())")
        }
    }

    /// The global symbols `path` defines (`nm`; `dynamic`: its dynamic symbol table).
    static func definedSymbols(_ path: String, dynamic: Bool) throws -> Set<String> {
        let process = try ChildProcess("/usr/bin/env", ["nm", "--defined-only", "--extern-only"] + (dynamic ? ["-D"] : []) + [path],
                                       output: .pipe, error: .inherited)
        let data = process.standardOutput!.readDataToEndOfFile()
        process.waitForExit()
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            line.split(separator: " ").last.map { String($0.split(separator: "@").first ?? $0) }
        })
    }
}
