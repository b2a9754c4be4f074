import Foundation
import PhotoPipeline

/// The project's sample images, and photos made from them.
enum Fixtures {
    /// `TestImages/` at the root of the package.
    static let testImages = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TestImages")

    static func path(_ name: String) -> String {
        testImages.appendingPathComponent(name).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        try FileIO.read(path(name))
    }

    /// `count` small, different JPEGs (the 96×64 marker at different sizes and qualities), so each
    /// has its own cache key. Cheap: a few milliseconds each in a debug build.
    static func distinctPhotos(_ count: Int) throws -> [[UInt8]] {
        let marker = try bytes("exif-orientation-1.jpg")
        return try (0..<count).map { index in
            let options = PrepareOptions(maxDimension: 16 + index % 80,
                                         encoding: EncodingOptions(format: .jpeg, quality: 50 + (index / 80) * 10))
            return try PhotoPipeline.prepare(marker, options: options).data
        }
    }

    /// Writes `photos` as `photo-N.jpg` files into `directory`; returns their paths.
    static func write(_ photos: [[UInt8]], into directory: String, prefix: String = "photo") throws -> [String] {
        try photos.enumerated().map { index, bytes in
            let path = directory + "/\(prefix)-\(index).jpg"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }
}
