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

        // Layers, dependencies pointing down only.
        .target(
            name: "PhotoPipeline",
            dependencies: ["CTurboJPEG", "CPNG", "CWebP"]),
        .target(name: "PetSpot"),
        .target(
            name: "PetSpotCLI",
            dependencies: [
                "PhotoPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "petspot", dependencies: ["PetSpotCLI"]),

        .testTarget(name: "PhotoPipelineTests", dependencies: ["PhotoPipeline"]),
        .testTarget(name: "PetSpotTests", dependencies: ["PetSpot"]),
        .testTarget(name: "PetSpotCLITests", dependencies: ["PetSpotCLI", "PhotoPipeline"]),
    ]
)
