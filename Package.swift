// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "PetSpot",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "petspot", targets: ["petspot"]),
        .library(name: "PhotoPipeline", targets: ["PhotoPipeline"]),
        .library(name: "PetSpot", targets: ["PetSpot"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        // System libraries: the one narrow door to C.
        .systemLibrary(
            name: "CTurboJPEG", pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]),
        .systemLibrary(
            name: "CWebP", pkgConfig: "libwebpdemux",
            providers: [.apt(["libwebp-dev"])]),

        // Scanline-at-a-time JPEG decoding (libjpeg-turbo's libjpeg API); one setjmp per C call.
        .target(
            name: "CJPEGStream",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("jpeg")]),

        // Layers, dependencies pointing down only.
        // Pixel loops are ~10x slower unoptimised; -O in debug builds keeps the test suite fast.
        .target(
            name: "PhotoPipeline",
            dependencies: ["CTurboJPEG", "CJPEGStream", "CPNG", "CWebP"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(
            name: "PhotoCache",
            dependencies: [
                "PhotoPipeline",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .target(name: "PetSpot"),
        .target(
            name: "PetSpotCLI",
            dependencies: [
                "PetSpot",
                "PhotoPipeline",
                "PhotoCache",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "petspot", dependencies: ["PetSpotCLI"]),

        .testTarget(
            name: "PhotoPipelineTests",
            dependencies: ["PhotoPipeline", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "PhotoCacheTests", dependencies: ["PhotoCache", "PhotoPipeline"]),
        .testTarget(name: "PetSpotTests", dependencies: ["PetSpot"]),
        .testTarget(name: "PetSpotCLITests", dependencies: ["PetSpotCLI", "PetSpot", "PhotoPipeline", "PhotoCache"]),
    ]
)
