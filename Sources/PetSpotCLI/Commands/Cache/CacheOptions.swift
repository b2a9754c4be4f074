import ArgumentParser
import Foundation
import PhotoCache
import PhotoPipeline
import PhotoCLI

/// Where the cache is and how much it may hold, shared by `photo add` and `cache …`.
///
/// Each value comes from its flag, else its environment variable, else the default.
struct CacheOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The cache folder (default: $PETSPOT_CACHE_DIR, else $XDG_CACHE_HOME/petspot, else ~/.cache/petspot).",
                               valueName: "dir"),
            completion: .directory)
    var cacheDir: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Total size of the cached photos, e.g. 500MB or 1.2GiB (default: $PETSPOT_CACHE_MAX_SIZE, else 512MiB).",
                               valueName: "size"),
            transform: { text in try CacheOptions.size(text, source: "--max-cache-size") })
    var maxCacheSize: Int?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Photos not used for longer are evicted, e.g. 30d or 12h (default: $PETSPOT_CACHE_MAX_AGE, else 30d).",
                               valueName: "age"),
            transform: { text in try CacheOptions.age(text, source: "--max-cache-age") })
    var maxCacheAge: TimeInterval?

    func validate() throws {
        try FolderChoice.checkFlag(cacheDir, option: "--cache-dir", fallback: "$PETSPOT_CACHE_DIR or the default")
        _ = try limits()
    }

    /// The note to print when a relative `XDG_CACHE_HOME` was passed over.
    func locationNote(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let chosen = location(environment: environment)
        return FolderChoice.relativeXDGNote("XDG_CACHE_HOME", environment: environment,
                                            used: chosen.source != .home, instead: chosen.root.path)
    }

    /// The cache folder, by the rules of ``CacheLocation/resolve(flag:environment:)``.
    func location(environment: [String: String] = ProcessInfo.processInfo.environment) -> CacheLocation {
        CacheLocation.resolve(flag: cacheDir, environment: environment)
    }

    /// The limits from the flags, else `PETSPOT_CACHE_MAX_SIZE` / `PETSPOT_CACHE_MAX_AGE`, else the defaults.
    func limits(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> CacheLimits {
        var limits = CacheLimits.default
        if let maxCacheSize {
            limits.maxBytes = maxCacheSize
        } else if let text = environment["PETSPOT_CACHE_MAX_SIZE"], !text.isEmpty {
            limits.maxBytes = try Self.size(text, source: "PETSPOT_CACHE_MAX_SIZE")
        }
        if let maxCacheAge {
            limits.maxAge = maxCacheAge
        } else if let text = environment["PETSPOT_CACHE_MAX_AGE"], !text.isEmpty {
            limits.maxAge = try Self.age(text, source: "PETSPOT_CACHE_MAX_AGE")
        }
        return limits
    }

    /// Opens the cache, or prints why it cannot be opened and exits with its status.
    func open() throws -> DiskPhotoCache {
        if let note = locationNote() { Terminal.error(note) }
        do {
            return try DiskPhotoCache(location: location(), limits: limits())
        } catch let error as CacheError {
            throw CacheFailure.report(error)
        }
    }

    /// Opens the cache for reading only, creating nothing (`cache stats`, `list`, `verify`), or
    /// prints why it cannot be opened and exits with its status.
    /// - Returns: The cache, or `nil` when none exists yet.
    func openReadOnly() throws -> DiskPhotoCache? {
        if let note = locationNote() { Terminal.error(note) }
        do {
            return try DiskPhotoCache.openReadOnly(location: location(), limits: limits())
        } catch let error as CacheError {
            throw CacheFailure.report(error)
        }
    }

    static func size(_ text: String, source: String) throws -> Int {
        try ByteSizeParser.argument(text, option: source)
    }

    static func age(_ text: String, source: String) throws -> TimeInterval {
        try AgeParser.argument(text, option: source)
    }
}

extension CacheFlow: ExpressibleByArgument {}
