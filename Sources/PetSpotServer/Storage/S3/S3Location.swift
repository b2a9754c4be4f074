/// A bucket (and a key prefix in it) on an S3-compatible store, addressed path-style:
/// `ENDPOINT/BUCKET/PREFIXKEY` — what MinIO, Ceph, Garage, moto and AWS itself all answer.
public struct S3Location: Sendable, Hashable, CustomStringConvertible {
    /// `http(s)://host[:port]`, no trailing slash.
    public var endpoint: String
    public var bucket: String
    /// Empty, or ending in `/`.
    public var prefix: String
    public var region: String

    /// - Parameters:
    ///   - url: `s3://BUCKET` or `s3://BUCKET/prefix`.
    ///   - endpoint: `http://host:port` of the store (AWS: `https://s3.REGION.amazonaws.com`).
    public init(url: String, endpoint: String, region: String) throws(S3Error) {
        guard url.hasPrefix("s3://") else {
            throw .badConfiguration("--photo-store must look like s3://BUCKET or s3://BUCKET/prefix (got \(url.prefix(100))).")
        }
        let rest = url.dropFirst("s3://".count).split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let bucket = String(rest[0])
        guard (3...63).contains(bucket.count),
              bucket.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" || $0 == "." }) else {
            throw .badConfiguration("\(bucket.prefix(70)) is not a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens.")
        }
        guard endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://") else {
            throw .badConfiguration("--s3-endpoint must be an http:// or https:// URL such as http://127.0.0.1:9000 (got \(endpoint.prefix(100))).")
        }
        self.bucket = bucket
        let prefix = rest.count > 1 ? String(rest[1]) : ""
        self.prefix = prefix.isEmpty || prefix.hasSuffix("/") ? prefix : prefix + "/"
        self.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        self.region = region
    }

    /// The `Host` header value: the endpoint's authority.
    var host: String {
        let afterScheme = endpoint.split(separator: "://", maxSplits: 1).last ?? ""
        return String(afterScheme.split(separator: "/", maxSplits: 1).first ?? "")
    }

    /// The object path of `key` (unencoded; the signer and the URL encode it alike).
    func path(for key: String) -> String {
        "/\(bucket)/\(prefix)\(key)"
    }

    public var description: String { "s3://\(bucket)/\(prefix) at \(endpoint)" }
}
