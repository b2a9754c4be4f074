#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoPipeline

/// `petspot-full`, installed beside `petspot`: the small binary replaces itself with it (exec, git
/// style) for every command it does not run itself. The process, its arguments, standard streams
/// and exit status stay the same; only the program changes.
package enum FullBinary {
    package static let name = "petspot-full"

    /// Runs `petspot-full` with `arguments` in place of this process; returns only when it cannot,
    /// with the reason.
    package static func exec(_ arguments: [String]) -> String {
        guard let path = location() else {
            return "cannot tell where petspot is installed, so \(name) (which runs this command) cannot be found"
        }
        let argv = (["petspot"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = FileIO.errnoText()
        argv.forEach { free($0) }
        return "\(name), which runs this command, cannot be started from \(path): \(reason). "
            + "Install it beside petspot (both are built by `swift build`)."
    }

    /// `petspot-full` in the folder of this executable (symbolic links followed).
    static func location() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        guard count > 0 else { return nil }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #else
        guard let first = CommandLine.arguments.first, first.contains("/") else { return nil }
        let executable = first
        #endif
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        return String(executable[...slash]) + name
    }
}
