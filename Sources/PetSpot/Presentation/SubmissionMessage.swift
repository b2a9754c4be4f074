/// The messages a person sees when sending a report fails (details go to `--verbose`).
public enum SubmissionMessage {
    /// The network is unreachable.
    public static let offline = "No connection. Please check your network and try again."
    /// Anything else went wrong.
    public static let generic = "Something went wrong. Please try again later."
}
