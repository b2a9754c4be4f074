import ArgumentParser
import PhotoPipeline

/// A byte count as every PetSpot option takes one: `20MB`, `512KiB`, `1.5M` or `1048576`
/// (``ByteFormat/parse(_:)``).
struct ByteCountOption: ExpressibleByArgument, Sendable {
    let bytes: Int

    init(_ bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        guard let bytes = ByteFormat.parse(argument) else { return nil }
        self.bytes = bytes
    }

    var defaultValueDescription: String { ByteFormat.string(bytes) }
}
