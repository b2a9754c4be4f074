import PhotoCLI
#if canImport(Glibc)
import Glibc
#endif

/// `petspot`: starts in a few milliseconds for the commands scripts call in loops (`photo
/// prepare`, `photo inspect`, `--version`), which it runs itself with FoundationEssentials alone;
/// it hands every other command to `petspot-full` beside it.
@main
struct PetSpotMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if PhotoCommandsRoot.runsHere(arguments) {
            await CommandRun.start(arguments, root: PhotoCommandsRoot.self)
        } else {
            Terminal.error("error: " + FullBinary.exec(arguments))
            exit(ExitStatus.software.rawValue)
        }
    }
}
