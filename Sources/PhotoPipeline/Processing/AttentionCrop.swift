/// A rectangle of pixels.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// How much of `other` lies inside this rectangle, from 0 to 1.
    public func coverage(of other: PixelRect) -> Double {
        let overlapX = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let overlapY = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        return Double(overlapX * overlapY) / Double(max(1, other.width * other.height))
    }

    public var description: String { "\(width)×\(height)+\(x)+\(y)" }
}

extension PhotoPipeline {
    /// The largest rectangle of `aspect` (width ÷ height) inside `image` that holds the most of
    /// what draws the eye: where a share card or a thumbnail crops a photo, so a dog standing at
    /// one side of a wide photo is kept rather than the empty middle.
    ///
    /// The idea of libvips' `attention` crop: on a copy at most ``attentionAnalysisEdge`` px long,
    /// each pixel scores its edge strength (the Laplacian of luminance), its saturation and
    /// whether it has a skin-like or fur-like warm tone; where libvips centres the crop on the
    /// single most salient point, every position of the crop window is scored here by the sum of
    /// the scores inside it (a summed-area table makes each position one lookup), so the crop
    /// holds the most salient *area*. Equal sums go to the position nearest the centre, so a
    /// plain picture is centre-cropped.
    public static func attentionCrop(_ image: PixelBuffer, aspect: Double) -> PixelRect {
        precondition(aspect > 0 && aspect.isFinite, "the aspect must be a positive number")
        let full = PixelRect(x: 0, y: 0, width: image.width, height: image.height)
        guard image.width > 0, image.height > 0 else { return full }
        // The largest rectangle of the aspect that fits.
        var cropWidth = image.width, cropHeight = image.height
        if Double(image.width) / Double(image.height) > aspect {
            cropWidth = max(1, min(image.width, Int((Double(image.height) * aspect).rounded())))
        } else {
            cropHeight = max(1, min(image.height, Int((Double(image.width) / aspect).rounded())))
        }
        if cropWidth == image.width && cropHeight == image.height { return full }

        let scale = min(1, Double(attentionAnalysisEdge) / Double(max(image.width, image.height)))
        let small = scale < 1
            ? image.resized(to: PixelSize(width: max(1, Int(Double(image.width) * scale)),
                                          height: max(1, Int(Double(image.height) * scale))), filter: .lanczos2)
            : image
        let table = SummedArea(saliency(of: small), width: small.width, height: small.height)
        let windowWidth = min(small.width, max(1, Int((Double(cropWidth) * Double(small.width) / Double(image.width)).rounded())))
        let windowHeight = min(small.height, max(1, Int((Double(cropHeight) * Double(small.height) / Double(image.height)).rounded())))

        // The best window; among equal sums, the one nearest the centre.
        let centreX = Double(small.width - windowWidth) / 2, centreY = Double(small.height - windowHeight) / 2
        var best = (x: 0, y: 0, sum: -1.0, distance: Double.infinity)
        for y in 0...(small.height - windowHeight) {
            for x in 0...(small.width - windowWidth) {
                let sum = table.sum(x: x, y: y, width: windowWidth, height: windowHeight)
                let distance = (Double(x) - centreX) * (Double(x) - centreX) + (Double(y) - centreY) * (Double(y) - centreY)
                if sum > best.sum * (1 + 1e-9) + 1e-9 || (abs(sum - best.sum) <= 1e-9 + best.sum * 1e-9 && distance < best.distance) {
                    best = (x, y, sum, distance)
                }
            }
        }
        // Back to the image's pixels, the window's centre kept.
        let centre = (x: (Double(best.x) + Double(windowWidth) / 2) / Double(small.width) * Double(image.width),
                      y: (Double(best.y) + Double(windowHeight) / 2) / Double(small.height) * Double(image.height))
        let x = min(max(0, Int((centre.x - Double(cropWidth) / 2).rounded())), image.width - cropWidth)
        let y = min(max(0, Int((centre.y - Double(cropHeight) / 2).rounded())), image.height - cropHeight)
        return PixelRect(x: x, y: y, width: cropWidth, height: cropHeight)
    }

    /// The long edge of the copy the attention crop scores.
    public static let attentionAnalysisEdge = 192

    /// Per pixel: edges + saturation + warm skin or fur tones, each from 0 to 1.
    static func saliency(of image: PixelBuffer) -> [Double] {
        let width = image.width, height = image.height
        var luma = [Double](repeating: 0, count: width * height)
        var scores = [Double](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, _) = image.rgba(x: x, y: y)
                let (rd, gd, bd) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
                luma[y * width + x] = 0.299 * rd + 0.587 * gd + 0.114 * bd
                let high = max(rd, gd, bd), low = min(rd, gd, bd)
                let saturation = high > 0 ? (high - low) / high : 0
                var score = saturation > 0.25 && high > 0.15 ? saturation * 0.5 : 0
                // Skin and warm fur: red above green above blue, in the proportions of skin-like tones.
                let length = (rd * rd + gd * gd + bd * bd).squareRoot()
                if length > 0.25, high < 0.98 {
                    let cosine = (rd * 0.78 + gd * 0.57 + bd * 0.44) / (length * 1.0614)
                    if cosine > 0.985 && rd > gd && gd > bd { score += 0.5 }
                }
                scores[y * width + x] = score
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                let centre = luma[y * width + x]
                let left = luma[y * width + max(0, x - 1)], right = luma[y * width + min(width - 1, x + 1)]
                let up = luma[max(0, y - 1) * width + x], down = luma[min(height - 1, y + 1) * width + x]
                let laplacian = abs(4 * centre - left - right - up - down)
                scores[y * width + x] += min(1, laplacian * 4)
            }
        }
        return scores
    }
}

/// Sums over rectangles in constant time.
private struct SummedArea {
    let width: Int
    let values: [Double]

    /// `scores`: `width × height` values, row by row.
    init(_ scores: [Double], width: Int, height: Int) {
        self.width = width + 1
        var values = [Double](repeating: 0, count: (width + 1) * (height + 1))
        for y in 0..<height {
            var row = 0.0
            for x in 0..<width {
                row += scores[y * width + x]
                values[(y + 1) * (width + 1) + x + 1] = values[y * (width + 1) + x + 1] + row
            }
        }
        self.values = values
    }

    func sum(x: Int, y: Int, width w: Int, height h: Int) -> Double {
        values[(y + h) * width + x + w] - values[y * width + x + w] - values[(y + h) * width + x] + values[y * width + x]
    }
}
