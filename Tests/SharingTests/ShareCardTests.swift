import Foundation
import PhotoPipeline
import Sharing
import Testing

/// The share card as a timeline shows it: a 1200 × 630 JPEG whose status word an OCR engine
/// (tesseract) reads, cropped to where the animal is.
@Suite struct ShareCardTests {
    @Test func aMissingDogsCardSaysMissing() throws {
        let card = try ShareCard.render(.sample(), photo: try Tools.photo(longEdge: 1200))
        let info = try PhotoPipeline.inspect(card)
        #expect(info.type == .jpeg && info.storedSize == PixelSize(width: 1200, height: 630))
        let text = try Tools.run("tesseract", [try Tools.file(card, named: "card.jpg"), "-", "--psm", "11"])
        #expect(text.contains("MISSING"), "\(text)")
        #expect(text.contains("Dog"), "\(text)")
    }

    /// At a timeline's thumbnail size (400 px wide) the status word is still read.
    @Test func theStatusIsReadableAtThumbnailSize() throws {
        let card = try ShareCard.render(.sample(status: .found), photo: try Tools.photo(longEdge: 1200))
        let thumbnail = try PhotoPipeline.prepare(card, options: PrepareOptions(maxDimension: 400)).data
        let text = try Tools.run("tesseract", [try Tools.file(thumbnail, named: "thumbnail.jpg"), "-", "--psm", "11"])
        #expect(text.contains("FOUND"), "\(text)")
    }

    @Test func withoutAPhotoTheCardShowsTheSpecies() throws {
        let announcement = SharedAnnouncement(status: .found, species: "Cat", since: "1 December 2025",
                                              place: "Near 52.2297, 21.0122", phone: "+48 123 456 789", pageURL: "https://x/pets/y")
        let card = try ShareCard.render(announcement, photo: nil)
        #expect(try PhotoPipeline.inspect(card).storedSize == PixelSize(width: 1200, height: 630))
        let text = try Tools.run("tesseract", [try Tools.file(card, named: "card.jpg"), "-", "--psm", "11"])
        #expect(text.contains("FOUND"), "\(text)")
        #expect(text.components(separatedBy: "Cat").count >= 3, "the species in the picture and in the band: \(text)")
    }

    /// A dog standing at the right edge of a wide, empty photo: the crop keeps all of it, where a
    /// centre crop would keep less than a third.
    @Test func theCropKeepsAnOffCentreSubject() throws {
        let subject = try PhotoPipeline.decode(try Tools.testImage("sample-photo.jpg"))
        let canvasWidth = subject.width * 3, height = subject.height
        var pixels = [UInt8](repeating: 0, count: canvasWidth * height * 3)
        for y in 0..<height {
            for x in 0..<canvasWidth {
                let i = (y * canvasWidth + x) * 3
                if x >= canvasWidth - subject.width {
                    let (r, g, b, _) = subject.rgba(x: x - (canvasWidth - subject.width), y: y)
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (r, g, b)
                } else {
                    (pixels[i], pixels[i + 1], pixels[i + 2]) = (214, 210, 204)
                }
            }
        }
        let wide = PixelBuffer(width: canvasWidth, height: height, channels: 3, pixels: pixels)
        let box = PixelRect(x: canvasWidth - subject.width, y: 0, width: subject.width, height: height)
        let crop = ShareCard.cropRectangle(of: wide)
        #expect(crop.height == height && abs(Double(crop.width) / Double(crop.height) - 740.0 / 630.0) < 0.01)
        #expect(crop.coverage(of: box) > 0.99, "crop \(crop), subject \(box)")
        let centre = PixelRect(x: (canvasWidth - crop.width) / 2, y: 0, width: crop.width, height: crop.height)
        #expect(centre.coverage(of: box) < 0.35)

        // Through the card: its photo part is the subject, not the empty grey.
        let photo = try PipelineStages.encode(wide, options: EncodingOptions(quality: 90), iccProfile: nil)
        let card = try PhotoPipeline.decode(try ShareCard.render(.sample(), photo: photo))
        var grey = 0, total = 0
        for y in stride(from: 0, to: 630, by: 5) {
            for x in stride(from: 0, to: 740, by: 5) {
                let (r, g, b, _) = card.rgba(x: x, y: y)
                total += 1
                if abs(Int(r) - 214) < 6 && abs(Int(g) - 210) < 6 && abs(Int(b) - 204) < 6 { grey += 1 }
            }
        }
        #expect(Double(grey) / Double(total) < 0.45, "\(grey) of \(total) samples are the empty background")
    }

    @Test func aPlainPictureIsCroppedInTheCentre() {
        let plain = PixelBuffer(width: 3000, height: 1000, channels: 3,
                                pixels: [UInt8](repeating: 128, count: 3000 * 1000 * 3))
        let crop = PhotoPipeline.attentionCrop(plain, aspect: 1)
        #expect(crop == PixelRect(x: 1000, y: 0, width: 1000, height: 1000))
    }
}
