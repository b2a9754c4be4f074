/// The version `petspot` and `petspot-server` report (User-Agent, `--version`). A module of its
/// own, so that the small `petspot` binary links nothing else to say it.
public enum PetSpotVersion {
    public static let current = "0.3.0"
}
