// swift-tools-version:6.1
import PackageDescription

// Start-up: no dynamic symbol table of our own (nothing looks our symbols up, and tens of
// thousands of exported names make every library's symbol binding search them), and lld packing
// the relative relocations (DT_RELR). Still position-independent: a fixed-address binary would
// start a little faster but hand an exploit of a hostile photo every ROP gadget it needs.
//
// The C++ runtime linked in, not loaded: the Swift runtime is C++, and binding libstdc++.so's
// thousands of symbols would be paid at every start. docs/performance.md has the start-up figures. `-lstdc++` finds the archive through `scripts/static-cxx` first, where
// `scripts/install-deps.sh` links the one Swift's clang would use; without it, the shared library.
let startupLinkerFlags: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                  "-Xclang-linker", "-static-libgcc", "-L\(Context.packageDirectory)/scripts/static-cxx"]),
]

let package = Package(
    name: "PetSpot",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "petspot", targets: ["petspot"]),
        .executable(name: "petspot-full", targets: ["petspot-full"]),
        .executable(name: "petspot-server", targets: ["petspot-server"]),
        .library(name: "PhotoPipeline", targets: ["PhotoPipeline"]),
        .library(name: "PetSpot", targets: ["PetSpot"]),
        .library(name: "Multipart", targets: ["Multipart"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // The server: Hummingbird 2 (without the swift-configuration trait), bcrypt, streaming multipart.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Past one machine: PostgreSQL for announcements, Prometheus metrics.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // System libraries: the one narrow door to C.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libjpeg, TurboJPEG, libpng, libwebp (demux, mux), Little CMS (a colour profile converted
        // to sRGB) and libjxl (its butteraugli distance, for `--quality auto`), opened with dlopen when a photo first needs them (a command that decodes nothing,
        // `petspot --version`, maps none of them), through forwarders of our own names; a library
        // that cannot be opened is a PhotoError. Headers from libturbojpeg0-dev, libjpeg62-turbo-dev,
        // libpng-dev, libwebp-dev, liblcms2-dev and libjxl-dev.
        .target(
            name: "CCodecs",
            linkerSettings: [.linkedLibrary("dl")]),
        // Line editing for the report wizard's questions on a terminal: Tab completes a photo's
        // path, arrow keys and history (libedit's readline-compatible API).
        .systemLibrary(
            name: "CEditLine", pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"])]),
        // HEIC/AVIF; Debian's libheif1 brings the libde265 (HEVC) and dav1d/aom (AV1) decoders.
        // Loaded with dlopen on first use (Sources/CHEIF/include/*_lazy.h): linking them made every
        // process start load five codec libraries. libheif reads the boxes and decodes what the
        // planar path declines; libde265 and dav1d are also called directly, to keep YCbCr planes
        // (HEIFPlanarDecoder). Headers from libheif-dev, libde265-dev, libdav1d-dev.
        .target(
            name: "CHEIF",
            linkerSettings: [.linkedLibrary("dl")]),

        // Flyers and share cards: cairo (PDF and image surfaces) with pango for text in any script,
        // libqrencode for the QR code to the pet's page.
        .systemLibrary(name: "CCairo", providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CQREncode", providers: [.apt(["libqrencode-dev"])]),

        // SMTP with STARTTLS, AUTH and kept-open connections for the server's mail (libcurl).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Scanline-at-a-time JPEG decoding (libjpeg-turbo's libjpeg API); one setjmp per C call.
        .target(name: "CJPEGStream", dependencies: ["CCodecs"]),

        // The inner loops of the planar resize in fixed point, for AVX2 and any CPU (picked by CPUID on first call).
        .target(name: "CResample"),

        // Our JPEG encoder's core: the forward DCT (AVX2 and any CPU, the same floats), the
        // quantisation tables and each block's levels, the Huffman tables from the symbols counted;
        // libjpeg-turbo writes the bits (jpeg_write_coefficients).
        .target(name: "CJPEGEncoder", dependencies: ["CCodecs"]),

        // Layers, dependencies pointing down only.
        // The photo pipeline, also a library product: no unsafe flags, so other packages can depend on it.
        .target(
            name: "PhotoPipeline",
            dependencies: ["CJPEGStream", "CJPEGEncoder", "CHEIF", "CResample", "CCodecs", "CZlib"]),
        .target(
            name: "PhotoCache",
            dependencies: [
                "PhotoPipeline",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(name: "PetSpot"),
        .target(name: "PetSpotVersion"),
        // `photo inspect` and `photo prepare`: the commands the small `petspot` binary runs itself
        // (no Foundation beyond FoundationEssentials, no cache, no network).
        .target(
            name: "PhotoCLI",
            dependencies: [
                "PhotoPipeline",
                "PetSpotVersion",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .target(
            name: "PetSpotCLI",
            dependencies: [
                "PetSpot",
                "PetSpotVersion",
                "PhotoCLI",
                "PhotoPipeline",
                "PhotoCache",
                "PetSpotClient",
                "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // `petspot` runs `photo inspect`, `photo prepare` and `--version` itself, with no Foundation
        // beyond FoundationEssentials and none of the cache's, the forms' or the network's code, and
        // execs `petspot-full` beside it for every other command (git-style). `swift build` builds
        // both (a target dependency on `petspot-full` would link its whole tree into `petspot`).
        .executableTarget(
            name: "petspot", dependencies: ["PhotoCLI"],
            linkerSettings: startupLinkerFlags),
        .executableTarget(
            name: "petspot-full", dependencies: ["PetSpotCLI"],
            linkerSettings: startupLinkerFlags),

        // RFC 7578 multipart/form-data encoder, streaming from memory or files; no dependencies.
        .target(name: "Multipart"),

        // The upload module: the announcements API over HTTP, retries, the submission journal.
        .target(
            name: "PetSpotClient",
            dependencies: [
                "PetSpot", "PetSpotVersion", "PhotoPipeline", "Multipart",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),

        // The printable flyer (PDF) and the share card (JPEG) of an announcement, from its facts and photo.
        .target(name: "Sharing", dependencies: ["PhotoPipeline", "CCairo", "CQREncode"]),

        // Mail as it leaves the server: MIME messages (text and HTML, RFC 2047 header text) and
        // their delivery to the operator's relay over SMTP, on a thread of its own.
        .target(name: "Mail", dependencies: ["CCurl"]),

        // The reference backend of the announcements API.
        .target(
            name: "PetSpotServer",
            dependencies: [
                "PetSpot",
                "PhotoPipeline",
                "Sharing",
                "Mail",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]),
        .executableTarget(
            name: "petspot-server",
            dependencies: [
                "PetSpotServer", "PetSpot", "PetSpotVersion", "PhotoPipeline", "Mail",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        .testTarget(
            name: "PhotoPipelineTests",
            dependencies: ["PhotoPipeline", "CCodecs", "CResample", "CJPEGEncoder", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["Fixtures"]),
        .testTarget(name: "PhotoCacheTests", dependencies: ["PhotoCache", "PhotoPipeline", "TestProcesses"]),
        .testTarget(name: "PetSpotTests", dependencies: ["PetSpot"]),
        .testTarget(name: "PetSpotClientTests", dependencies: ["PetSpotClient", "PetSpot", "TestScratch"], exclude: ["Fixtures"]),
        .testTarget(
            name: "MultipartTests",
            dependencies: [
                "TestScratch",
                "TestProcesses",
                "Multipart",
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "PetSpotServerTests",
            dependencies: [
                "PetSpotServer", "PetSpot", "PhotoPipeline", "TestEngines",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            exclude: ["Fixtures"]),
        // PostgreSQL and S3 emulator processes for the server's test suites (scripts/pg-cluster.py, scripts/s3-emulator.py).
        .target(name: "TestEngines", dependencies: ["PetSpotServer", "TestProcesses"], path: "Tests/TestEngines"),
        // Temporary folders for tests, removed when the test process ends.
        .target(name: "TestScratch", path: "Tests/TestScratch"),
        // The programs the tests start, without Foundation's Process (ChildProcess.swift says why).
        .target(name: "TestProcesses", path: "Tests/TestProcesses"),
        .testTarget(name: "TestProcessesTests", dependencies: ["TestProcesses", "TestScratch"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "PetSpot", "PetSpotVersion", "PhotoPipeline", "PetSpotClient", "PetSpotServer", "TestEngines", "TestProcesses", "TestScratch",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "MailTests", dependencies: ["Mail", "TestEngines", "TestProcesses", "TestScratch"]),
        .testTarget(name: "SharingTests", dependencies: ["Sharing", "PhotoPipeline", "TestProcesses", "TestScratch"]),
        .testTarget(name: "PetSpotCLITests", dependencies: ["PetSpotCLI", "PhotoCLI", "PetSpot", "PhotoPipeline", "PhotoCache", "PetSpotClient", "TestProcesses"]),
    ]
)

// MARK: The project's own test and fuzz builds — `scripts/test.sh` and `scripts/fuzz.sh` set
// PETSPOT_OPTIMIZED_DEBUG=1: the pipeline's pixel loops and the C codecs' shims run about six times
// slower unoptimised, which would double the suite's time and starve its timing-sensitive server
// tests. Only these builds get the flags: a package that depends on this one evaluates the manifest
// without the variable, so the targets its products contain carry no unsafe flags
// (`scripts/check-library-consumer.sh` builds one).
if Context.environment["PETSPOT_OPTIMIZED_DEBUG"] == "1" {
    for target in package.targets where ["CCodecs", "CHEIF", "CJPEGStream", "CJPEGEncoder", "CResample"].contains(target.name) {
        target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-O2"], .when(configuration: .debug))]
    }
    for target in package.targets where target.name == "PhotoPipeline" {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-O"], .when(configuration: .debug))]
    }
}

// MARK: Fuzzing — `scripts/fuzz.sh TARGET [SECONDS]` sets PETSPOT_FUZZ=1; the normal build and test run never see these.
//
// Our own modules are built with libFuzzer's coverage and AddressSanitizer (and the C shim also
// with UndefinedBehaviorSanitizer) and testable, so a harness can call internal parsers; the
// dependencies (SwiftNIO, Hummingbird, …) are left as they are.
if Context.environment["PETSPOT_FUZZ"] == "1" {
    let sanitizers = "-sanitize=fuzzer,address"
    for target in package.targets where target.type == .regular {
        if target.name == "CJPEGStream" || target.name == "CJPEGEncoder" {
            target.cSettings = (target.cSettings ?? []) + [.unsafeFlags(["-fsanitize=fuzzer-no-link,address,undefined"])]
        } else if !target.name.hasPrefix("C") {
            target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags([sanitizers, "-enable-testing"])]
        }
    }
    let harnesses: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzSniff", ["PhotoPipeline"]),
        ("FuzzProbe", ["PhotoPipeline"]),
        ("FuzzPrepare", ["PhotoPipeline"]),
        ("FuzzEncode", ["PhotoPipeline"]),
        ("FuzzDraft", ["PetSpotCLI", "PetSpot"]),
        ("FuzzJournal", ["PetSpotClient", "PetSpot"]),
        ("FuzzMultipart", ["PetSpotServer", .product(name: "NIOCore", package: "swift-nio")]),
        ("FuzzBasicAuth", ["PetSpot"]),
        ("FuzzAnnouncementJSON", ["PetSpotServer", "PetSpot"]),
        ("FuzzClientResponse", ["PetSpotClient", "PetSpot"]),
    ]
    package.targets.append(.target(name: "CFuzzDriver", path: "Fuzz/Driver"))
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["PetSpot", "CFuzzDriver"], path: "Fuzz/Support",
                                   swiftSettings: [.unsafeFlags([sanitizers])]))
    for harness in harnesses {
        package.targets.append(.executableTarget(
            name: harness.name, dependencies: harness.dependencies + ["FuzzSupport"], path: "Fuzz/Targets/\(harness.name)",
            swiftSettings: [.unsafeFlags([sanitizers])],
            linkerSettings: [.unsafeFlags([sanitizers, "-use-ld=lld"])]))
    }
}

// MARK: Benchmarks — the pipeline's stages under ordo-one/benchmark, only when PETSPOT_BENCHMARKS=1,
// so the normal build and test run never resolve or build them:
//   PETSPOT_BENCHMARKS=1 swift package benchmark --target PhotoStages
//   PETSPOT_BENCHMARKS=1 swift package benchmark baseline check main --target PhotoStages
//   PETSPOT_BENCHMARKS=1 swift package --allow-writing-to-package-directory benchmark baseline update main --target PhotoStages
if Context.environment["PETSPOT_BENCHMARKS"] == "1" {
    package.dependencies.append(
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]))
    package.targets.append(.executableTarget(
        name: "PhotoStages",
        dependencies: ["PhotoPipeline", .product(name: "Benchmark", package: "benchmark")],
        path: "Benchmarks/PhotoStages",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]))
}
