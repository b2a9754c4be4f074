import Foundation
import PhotoPipeline
import Sharing
import Testing

/// The flyer read back as a person's tools read it: its text (pdftotext), its images
/// (pdfimages), its QR code (zbarimg on a pdftoppm render), its page size (pdfinfo).
@Suite struct FlyerTests {
    @Test func aMissingDogsFlyerSaysWhatItIsAndWhoToCall() throws {
        let announcement = SharedAnnouncement.sample()
        let pdf = try Flyer.render(announcement, photo: try Tools.photo(longEdge: 1600))
        let path = try Tools.file(pdf, named: "flyer.pdf")
        let text = try Tools.run("pdftotext", ["-layout", path, "-"])
        for expected in ["MISSING DOG", "Burek", "Labrador mix", "Male", "3 years", "Missing since 18 November 2025",
                         "Near 52.2297, 21.0122", "Reward: 500 PLN", "Red collar", "+48 123 456 789", announcement.pageURL] {
            #expect(text.contains(expected), "\(expected) is not on the flyer:\n\(text)")
        }
        // Eight tear-off strips, each with the number, besides the number in large type.
        #expect(text.components(separatedBy: "+48 123 456 789").count - 1 >= 9)
        let info = try Tools.run("pdfinfo", [path])
        #expect(info.contains(pageCount: 1))
        #expect(info.contains("595.28 x 841.89 pts (A4)"))
    }

    @Test func thePhotoIsEmbeddedAsTheJPEGItIs() throws {
        let photo = try Tools.photo(longEdge: 1600)
        let pdf = try Flyer.render(.sample(), photo: photo)
        let path = try Tools.file(pdf, named: "flyer.pdf")
        // page num type width height color comp bpc enc interp object ID …
        let rows = try Tools.run("pdfimages", ["-list", path]).split(separator: "\n").dropFirst(2).map { $0.split(separator: " ") }
        let jpegs = rows.filter { $0.count > 8 && $0[8] == "jpeg" }
        #expect(jpegs.count == 1)
        #expect(jpegs.first.map { Int($0[3])! >= 1000 && Int($0[4])! >= 1000 } == true, "\(rows)")
        // The very bytes: the photo's file is inside the PDF as it is.
        let prefix = try Tools.file([], named: "extracted")
        _ = try Tools.run("pdfimages", ["-j", path, prefix])
        let extracted = try [UInt8](Data(contentsOf: URL(fileURLWithPath: prefix + "-000.jpg")))
        #expect(extracted == photo)
    }

    @Test(arguments: [Paper.a4, .letter])
    func theQRCodeOpensThePetsPage(paper: Paper) throws {
        let announcement = SharedAnnouncement.sample()
        let path = try Tools.file(try Flyer.render(announcement, photo: try Tools.photo(longEdge: 1200), paper: paper), named: "flyer.pdf")
        let info = try Tools.run("pdfinfo", [path])
        #expect(info.contains(paper == .a4 ? "595.28 x 841.89 pts (A4)" : "612 x 792 pts (letter)"), "\(info)")
        let png = try Tools.render(pdf: path, dpi: 150)
        let codes = try Tools.run("zbarimg", ["--quiet", "--raw", png])
        #expect(codes.split(separator: "\n").map(String.init) == [announcement.pageURL])
    }

    @Test func theSameAnnouncementMakesTheSameBytes() throws {
        let photo = try Tools.photo(longEdge: 640)
        let first = try Flyer.render(.sample(), photo: photo)
        Thread.sleep(forTimeInterval: 1.1)
        let second = try Flyer.render(.sample(), photo: photo)
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        #expect(!text.contains("/CreationDate (D:"))
        #expect(!text.contains("/ModDate (D:"))
    }

    @Test func aReunitedPetsFlyerHasNoPhoneNumber() throws {
        let path = try Tools.file(try Flyer.render(.sample(status: .reunited), photo: try Tools.photo(longEdge: 640)), named: "flyer.pdf")
        let text = try Tools.run("pdftotext", [path, "-"])
        #expect(text.contains("REUNITED"))
        #expect(!text.contains("123 456 789"))
        #expect(!text.contains("MISSING"))
    }

    @Test func withoutAPhotoTheTextTakesTheRoom() throws {
        let long = String(repeating: "A black dog with one white paw and a torn left ear, last seen by the river. ", count: 12)
        let path = try Tools.file(try Flyer.render(.sample(description: long), photo: nil), named: "flyer.pdf")
        #expect(try Tools.run("pdfimages", ["-list", path]).split(separator: "\n").count == 2)
        let text = try Tools.run("pdftotext", [path, "-"])
        // The description starts near the top of the page, where the photo would be.
        let withPhoto = try Tools.file(try Flyer.render(.sample(description: long), photo: try Tools.photo(longEdge: 1200)),
                                       named: "with-photo.pdf")
        let top = { (path: String) throws -> Double in
            let line = try #require(try Tools.run("pdftotext", ["-bbox", path, "-"]).split(separator: "\n").first { $0.hasSuffix(">black</word>") })
            let start = try #require(line.range(of: "yMin=\"")).upperBound
            return try #require(Double(line[start...].prefix { $0 != "\"" }))
        }
        #expect(try top(path) + 200 < top(withPhoto))
        #expect(text.contains("+48 123 456 789"))
    }

    /// Names and descriptions in any script come out as text (a font had the glyphs); pdftotext
    /// reads them back.
    @Test(arguments: ["Żółć Łódź", "Шарик", "Μαύρος", "小白", "ポチ", "بسبوسة", "שוקו"])
    func namesInAnyScriptAreSet(name: String) throws {
        let announcement = SharedAnnouncement(status: .found, species: "Cat", petName: name, since: "1 December 2025",
                                              place: "Near 35.6895, 139.6917", description: "\(name) \(name)",
                                              phone: "+81 90 1234 5678", pageURL: "https://petspot.example/pets/x")
        let path = try Tools.file(try Flyer.render(announcement, photo: nil), named: "flyer.pdf")
        let text = try Tools.run("pdftotext", [path, "-"])
        #expect(text.contains("FOUND CAT"))
        let words = name.split(separator: " ").map(String.init)
        for word in words where !["بسبوسة", "שוקו"].contains(word) {
            #expect(text.contains(word), "\(word) not read back:\n\(text)")
        }
        // Right-to-left words come back in logical or visual order depending on poppler; either way
        // every letter is there.
        for letter in name where !letter.isWhitespace {
            #expect(text.contains(letter), "\(letter) missing")
        }
        let fonts = try Tools.run("pdffonts", [path])
        #expect(!fonts.contains("Type 3"), "\(fonts)")
    }

    /// A description of one 500-letter word, emoji and direction overrides stays inside its box:
    /// every word pdftotext finds lies on the page, and the phone number is still there.
    @Test func hostileTextNeverLeavesThePageOrHidesThePhone() throws {
        let word = String(repeating: "W", count: 500)
        let hostile = "\u{202E}\(word) 🐕🐕🐕 \u{202E}987 654 321+ \(word)\n\n\n" + String(repeating: "\u{202E}x ", count: 400)
        let announcement = SharedAnnouncement(status: .missing, species: "Dog", petName: "\u{202E}" + word,
                                              breed: word, since: "18 November 2025", place: word, reward: word,
                                              description: hostile, phone: "+48 123 456 789",
                                              pageURL: "https://petspot.example/pets/" + String(repeating: "a", count: 200))
        for paper in Paper.allCases {
            let path = try Tools.file(try Flyer.render(announcement, photo: try Tools.photo(longEdge: 1200), paper: paper), named: "hostile.pdf")
            let html = try Tools.run("pdftotext", ["-bbox", path, "-"])
            let size = paper == .a4 ? (595.28, 841.89) : (612.0, 792.0)
            var words = 0
            for line in html.split(separator: "\n") where line.contains("<word ") {
                words += 1
                let numbers = ["xMin", "yMin", "xMax", "yMax"].map { key -> Double in
                    let start = line.range(of: "\(key)=\"")!.upperBound
                    return Double(line[start...].prefix { $0 != "\"" })!
                }
                #expect(numbers[0] >= 0 && numbers[1] >= 0 && numbers[2] <= size.0 + 0.5 && numbers[3] <= size.1 + 0.5, "\(line)")
            }
            #expect(words > 20)
            let text = try Tools.run("pdftotext", ["-layout", path, "-"])
            #expect(text.contains("+48 123 456 789"))
            #expect(!text.contains("\u{202E}"))
            #expect(try Tools.run("pdfinfo", [path]).contains(pageCount: 1))
        }
    }

    /// A 2048 px photo: the whole flyer stays under 1.5 MB.
    @Test(.enabled(if: Corpus.folder != nil, "set PETSPOT_CORPUS to the shared corpus"))
    func aFlyerWithA2048PixelPhotoStaysSmall() throws {
        let camera = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Corpus.folder! + "/photos/olympus-ep3_4032x3024.jpg")))
        let photo = try PhotoPipeline.prepare(camera).data
        #expect(try PhotoPipeline.inspect(photo).storedSize.longEdge == 2048)
        let pdf = try Flyer.render(.sample(), photo: photo)
        _ = try Tools.file(pdf, named: "flyer-2048.pdf")
        #expect(pdf.count < 1_500_000, "\(pdf.count) bytes")
    }
}

extension String {
    /// Whether pdfinfo's output says the document has `pageCount` pages.
    func contains(pageCount: Int) -> Bool {
        split(separator: "\n").contains { $0.hasPrefix("Pages:") && $0.dropFirst(6).trimmingCharacters(in: .whitespaces) == String(pageCount) }
    }
}

enum Corpus {
    static var folder: String? {
        ProcessInfo.processInfo.environment["PETSPOT_CORPUS"].flatMap { $0.isEmpty ? nil : $0 }
    }
}
