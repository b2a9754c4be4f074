/// The version `petspot` and `petspot-server` report (User-Agent, `--version`).
public enum PetSpotVersion {
    public static let current = "0.3.0"
}
