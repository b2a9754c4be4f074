import Foundation
import PhotoPipeline
import Sharing
import TestProcesses
import TestScratch

/// The document tools the tests read flyers and cards with (poppler-utils, zbar-tools,
/// tesseract-ocr: `scripts/install-test-deps.sh`).
enum Tools {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tool` with `arguments`; its standard output.
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        // Errors to a file: reading two pipes one after the other could block on the second.
        let errors = try ScratchFolder.make("tool") + "/stderr"
        let process = try ChildProcess("/usr/bin/env", [tool] + arguments, output: .pipe, error: .file(errors))
        let data = process.standardOutput!.readDataToEndOfFile()
        let status = process.waitForExit()
        let problems = FileManager.default.contents(atPath: errors) ?? Data()
        // zbarimg exits 4 when it finds no code; that is an answer, not a failure.
        guard status == 0 || (tool == "zbarimg" && status == 4) else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(status): \(String(decoding: problems, as: UTF8.self))")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes `bytes` to a new file in a scratch folder; with `PETSPOT_KEEP_DOCUMENTS=DIR` also
    /// to DIR, so a person can look at what the tests made.
    static func file(_ bytes: [UInt8], named name: String, function: String = #function) throws -> String {
        let path = try ScratchFolder.make("sharing") + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        if let keep = ProcessInfo.processInfo.environment["PETSPOT_KEEP_DOCUMENTS"], !keep.isEmpty, !bytes.isEmpty {
            let label = function.prefix { $0 != "(" }
            try? Data(bytes).write(to: URL(fileURLWithPath: "\(keep)/\(label)-\(bytes.count)-\(name)"))
        }
        return path
    }

    /// A repository test image.
    static func testImage(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("TestImages/\(name)")))
    }

    /// The sample photo prepared at `size` px, as the server stores it.
    static func photo(longEdge size: Int) throws -> [UInt8] {
        try PhotoPipeline.prepare(try testImage("sample-photo.jpg"), options: PrepareOptions(maxDimension: size)).data
    }

    /// Page 1 rendered to PNG at `dpi`; the PNG's path.
    static func render(pdf path: String, dpi: Int) throws -> String {
        let prefix = path + "-page"
        _ = try run("pdftoppm", ["-r", String(dpi), "-png", "-singlefile", path, prefix])
        return prefix + ".png"
    }
}

extension SharedAnnouncement {
    static func sample(status: Status = .missing, name: String? = "Burek", description: String? = nil) -> SharedAnnouncement {
        SharedAnnouncement(status: status, species: "Dog", petName: name, breed: "Labrador mix", sex: "Male", age: "3 years",
                           since: "18 November 2025", place: "Near 52.2297, 21.0122", reward: "500 PLN",
                           description: description ?? "Friendly, answers to Burek. Red collar, a white patch on the chest.",
                           phone: "+48 123 456 789", pageURL: "https://petspot.example/pets/0f7c2f7e-5b1d-4a8e-9f43-2d6b8a1c9e01")
    }
}
