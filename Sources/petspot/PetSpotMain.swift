import PetSpotCLI

@main
struct PetSpotMain {
    static func main() async {
        await PetSpotCommand.start(Array(CommandLine.arguments.dropFirst()))
    }
}
