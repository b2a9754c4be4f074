import PetSpotCLI

@main
struct PetSpotMain {
    static func main() async {
        await PetSpotCommand.main()
    }
}
