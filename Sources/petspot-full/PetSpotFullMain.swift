import PetSpotCLI

/// `petspot-full`: every `petspot` command. The small `petspot` binary runs `photo inspect`,
/// `photo prepare` and `--version` itself and hands everything else to this one.
@main
struct PetSpotFullMain {
    static func main() async {
        await PetSpotCommand.start(Array(CommandLine.arguments.dropFirst()))
    }
}
