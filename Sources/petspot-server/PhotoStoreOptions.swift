import ArgumentParser
import Foundation
import PetSpotServer

/// `--photo-store`, `--s3-endpoint`, `--s3-region`: where photos go, for `serve` (optional:
/// the data directory without it) and `migrate` (the target bucket).
struct PhotoStoreOptions: ParsableArguments {
    @Option(name: .customLong("photo-store"), help: ArgumentHelp(
        "Keep photos in an S3-compatible bucket: s3://BUCKET or s3://BUCKET/prefix (serve's default: the data directory).",
        discussion: "Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and, for temporary ones, AWS_SESSION_TOKEN. Requests are signed with AWS Signature Version 4 and addressed path-style."))
    var photoStore: String?

    @Option(name: .customLong("s3-endpoint"), help: "The store's URL, e.g. http://127.0.0.1:9000 (default: AWS S3 in --s3-region).")
    var s3Endpoint: String?

    @Option(name: .customLong("s3-region"), help: "The region requests are signed for.")
    var s3Region = "us-east-1"

    /// The bucket and the credentials from the environment, or `nil` without `--photo-store`.
    /// - Throws: exit 78 (EX_CONFIG) with the reason on standard error.
    func bucket() throws -> (location: S3Location, credentials: AWSCredentials)? {
        guard let photoStore else { return nil }
        do {
            let location = try S3Location(url: photoStore, endpoint: s3Endpoint ?? "https://s3.\(s3Region).amazonaws.com", region: s3Region)
            guard let credentials = AWSCredentials.fromEnvironment() else {
                throw S3Error.badConfiguration("--photo-store needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the environment.")
            }
            return (location, credentials)
        } catch {
            throw ConfigurationFailure.report(error)
        }
    }
}

/// A setting that cannot be used: its reason on standard error, exit 78 (EX_CONFIG).
enum ConfigurationFailure {
    static func report(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(error)\n".utf8))
        return ExitCode(78)
    }

    /// The database URL, or exit 78 with why it cannot be used (never the password).
    static func databaseURL(_ text: String) throws -> DatabaseURL {
        do {
            return try DatabaseURL(text)
        } catch {
            throw report(error)
        }
    }

    /// The password keys from `--password-key` (or `PETSPOT_PASSWORD_KEY`) or the file, or exit
    /// 78 with why they cannot be used (never a key); `nil` when neither is given.
    static func passwordKeys(text: String?, file: String?, writing version: Int?) throws -> PasswordKeyring? {
        if text != nil && file != nil {
            throw report(PasswordKeyring.KeyringError.invalid("give it once: --password-key (PETSPOT_PASSWORD_KEY) or --password-key-file, not both"))
        }
        var source = text
        if let file {
            do { source = try String(contentsOfFile: file, encoding: .utf8) } catch {
                throw report(PasswordKeyring.KeyringError.invalid("--password-key-file \(file) cannot be read (\(error.localizedDescription))"))
            }
        }
        guard let source else {
            if version != nil {
                throw report(PasswordKeyring.KeyringError.invalid("--password-key-version needs the keys given (--password-key or --password-key-file)"))
            }
            return nil
        }
        do { return try PasswordKeyring.parse(source, writing: version) } catch { throw report(error) }
    }
}
