#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PhotoPipeline

/// `petspot-full`, the program behind every command the small `petspot` does not run itself:
/// the small binary replaces itself with it (exec, git style). The process, its arguments,
/// standard streams and exit status stay the same; only the program changes. It is looked for in
/// `libexec/petspot/` beside the `bin/` folder of `petspot` (where `scripts/install.sh` puts
/// it), then beside `petspot` itself (a build folder).
package enum FullBinary {
    package static let name = "petspot-full"

    /// Runs `petspot-full` with `arguments` in place of this process; returns only when it cannot,
    /// with the reason and how to install PetSpot so that it can.
    package static func exec(_ arguments: [String]) -> String {
        guard let folder = executableFolder() else {
            return "cannot tell where petspot is installed, so \(name) (which runs this command) cannot be found; "
                + "install PetSpot with scripts/install.sh --prefix DIR."
        }
        let candidates = [folder + "../libexec/petspot/" + name, folder + name]
        guard let path = candidates.first(where: { access($0, F_OK) == 0 }) else {
            return "this petspot (\(folder)petspot) runs photo inspect and photo prepare only; \(name), which runs "
                + "every other command, is not installed with it. Install both with scripts/install.sh --prefix DIR."
        }
        let argv = (["petspot"] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let reason = FileIO.errnoText()
        argv.forEach { free($0) }
        return "\(name), which runs this command, cannot be started from \(path): \(reason). "
            + "Reinstall with scripts/install.sh --prefix DIR."
    }

    /// The folder of this executable, ending in `/` (symbolic links followed).
    static func executableFolder() -> String? {
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
        return String(executable[...slash])
    }
}
