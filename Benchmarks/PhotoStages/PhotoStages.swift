import Benchmark
import Foundation
import PhotoPipeline

/// Each stage of `prepare` on a 12 MP camera JPEG (restart markers: two row bands), an 18 MP
/// progressive q100 JPEG (luma and chroma decoded at once), a 2.5 MP PNG with alpha, a 5 MP WebP
/// and a 12 MP iPhone HEIC (a grid of 48 HEVC tiles) from the shared corpus (`PETSPOT_CORPUS`, default
/// ../shared/corpus), toward a 2048 px JPEG q85: sniff + probe, scaled decode, resize, orient,
/// encode, and the whole prepare. The HEIC's "scaled decode" is libheif's full RGB decode (what the
/// stages take); its whole prepare goes through the planar path (libde265's planes, no RGB).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1, scalingFactor: .one, maxDuration: .seconds(5), maxIterations: 20)

    let corpus = ProcessInfo.processInfo.environment["PETSPOT_CORPUS"] ?? "../shared/corpus"
    let inputs = [
        ("jpeg-12MP", "photos/olympus-ep3_4032x3024.jpg"),
        ("jpeg-18MP-progressive", "photos/sony-rx100m4_5640x3172_q100.jpg"),
        ("png-2.5MP-alpha", "photos/canon400d-storm_1920x1280_alpha.png"),
        ("webp-5MP", "photos/minolta-z5-wood_2560x1920.webp"),
        ("heic-12MP-grid", "heif/pillowheif-arrow-iphone8plus.heic"),
    ]
    let options = PrepareOptions(threads: 2)   // as `petspot photo prepare` does for one photo on two cores
    for (name, path) in inputs {
        guard let data = FileManager.default.contents(atPath: "\(corpus)/\(path)") else {
            fatalError("\(corpus)/\(path) is missing; set PETSPOT_CORPUS to the shared corpus")
        }
        let bytes = [UInt8](data)
        let info = try! PipelineStages.probe(bytes)
        let target = info.storedSize.fitting(longEdge: options.maxDimension)
        let decoded = try! PipelineStages.decode(bytes, info: info, minimumLongEdge: target.longEdge * 2)
        let resized = decoded.resized(to: target, threads: 2)
        let upright = resized.oriented(.right)

        Benchmark("\(name) sniff+probe") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PipelineStages.probe(bytes)) }
        }
        Benchmark("\(name) scaled decode") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PipelineStages.decode(bytes, info: info, minimumLongEdge: target.longEdge * 2))
            }
        }
        Benchmark("\(name) resize \(decoded.width)x\(decoded.height) to \(target.width)x\(target.height)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(decoded.resized(to: target, threads: 2)) }
        }
        Benchmark("\(name) orient (rotate 90)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(resized.oriented(.right)) }
        }
        Benchmark("\(name) encode JPEG q85") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try PipelineStages.encode(upright, options: options.encoding, iccProfile: info.iccProfile))
            }
        }
        Benchmark("\(name) whole prepare") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try PhotoPipeline.prepare(bytes, options: options)) }
        }
    }
}
