#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoPipeline

/// What `photo prepare` checks before it writes an output: never over its own input, and never
/// over an existing file without `--force` (as vipsthumbnail users expect: sources are not clobbered).
/// A device or FIFO (`/dev/null`, a named pipe) is written to, not replaced, so it is no clobbering.
package enum OutputCheck {
    /// Why an output is refused.
    package enum Refusal: Error, CustomStringConvertible {
        case isInput(path: String)
        case exists(path: String)

        package var code: String {
            switch self {
            case .isInput: "output-is-input"
            case .exists: "output-exists"
            }
        }

        package var description: String {
            switch self {
            case .isInput(let path):
                "Not writing \(path): it is the input file itself, which is never overwritten. Name another output file or folder."
            case .exists(let path):
                "Not writing \(path): the file exists already. Pass --force to replace it, or name another output."
            }
        }
    }

    /// - Parameter inputs: every input of the run: an output must not be any of them (with
    ///   `--out-dir`, one photo's output can be another photo's input).
    /// - Throws: a ``Refusal`` saying why the output is refused.
    package static func check(_ output: String, inputs: [String], force: Bool) throws(Refusal) {
        var target = stat()
        guard stat(output, &target) == 0 else { return }
        for input in inputs where input != StandardStreams.name {
            var source = stat()
            if stat(input, &source) == 0, source.st_dev == target.st_dev, source.st_ino == target.st_ino {
                throw .isInput(path: output)
            }
        }
        if target.st_mode & S_IFMT == S_IFREG, !force { throw .exists(path: output) }
    }
}
