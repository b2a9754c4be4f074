import ArgumentParser
import PhotoPipeline

/// `-` as a file name: standard input for an input, standard output for `-o`, as image tools do.
package enum StandardStreams {
    package static let name = "-"

    /// Refuses more than one `-` input, a `-` input without an output name to derive from it,
    /// and standard input on a terminal (a photo has to be piped in).
    package static func checkInputs(_ files: [String], outDir: String? = nil) throws {
        let count = files.count { $0 == name }
        guard count > 0 else { return }
        if count > 1 { throw ValidationError("- (standard input) can be given only once.") }
        if outDir != nil {
            throw ValidationError("A photo read from standard input has no name to derive its output from; name the output with -o FILE.")
        }
        if Terminal.stdinIsTerminal {
            throw ValidationError("- reads a photo from standard input, which is a terminal; pipe a photo in (`cat photo.jpg | petspot …`) or name the file.")
        }
    }

    /// The bytes of `path`, or of standard input for `-`.
    package static func read(_ path: String, limit: Int) throws(PhotoError) -> [UInt8] {
        path == name ? try FileIO.readStandardInput(limit: limit) : try FileIO.read(path, limit: limit)
    }
}
