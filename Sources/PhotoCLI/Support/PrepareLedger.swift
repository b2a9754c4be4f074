#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `photo prepare … --out-dir DIR` has finished there, so running the same command again
/// after an interruption continues where it stopped: a line per output (`<recipe> <bytes>
/// <path inside DIR>`) in the state folder (`$PETSPOT_STATE_DIR`, else `$XDG_STATE_HOME/petspot`,
/// else `~/.local/state/petspot`), `prepared/<digest of DIR's real path>.ledger` — never in the
/// output folder, which holds the photos only. An output is skipped when it exists with the size
/// recorded for it and the recipe is the same: the same source file (size, time of change,
/// inode) prepared with the same options. `--force` prepares everything again.
///
/// A line is appended (one `write` with `O_APPEND`, whole or not at all) before the output is
/// renamed into place: an interrupted write leaves either no output or the recorded one.
package struct PrepareLedger: Sendable {
    let outDir: String
    /// Path inside the output folder → (recipe, byte count), the last line for a path winning.
    private let finished: [String: (recipe: String, bytes: Int)]

    package init(outDir: String) {
        self.outDir = outDir
        var finished: [String: (recipe: String, bytes: Int)] = [:]
        if let path = Self.ledgerPath(outDir) {
            for line in Self.contents(path).split(separator: "\n") {
                let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard fields.count == 3, let bytes = Int(fields[1]) else { continue }
                finished[String(fields[2])] = (String(fields[0]), bytes)
            }
        }
        self.finished = finished
    }

    /// The ledger of `outDir` (which must exist), or `nil` when no state folder can be named.
    static func ledgerPath(_ outDir: String) -> String? {
        guard let real = realpath(outDir, nil) else { return nil }
        let folder = String(cString: real)
        free(real)
        guard let state = stateFolder() else { return nil }
        return state + "/prepared/" + digest(folder) + ".ledger"
    }

    /// `$PETSPOT_STATE_DIR`, else `$XDG_STATE_HOME/petspot` (only when absolute), else
    /// `~/.local/state/petspot`: where the drafts live too.
    static func stateFolder() -> String? {
        func variable(_ name: String) -> String? {
            guard let value = getenv(name) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
        if let own = variable("PETSPOT_STATE_DIR") { return own }
        if let xdg = variable("XDG_STATE_HOME"), xdg.hasPrefix("/") { return xdg + "/petspot" }
        return variable("HOME").map { $0 + "/.local/state/petspot" }
    }

    /// A 64-bit FNV-1a digest in hex.
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// `output`'s path inside the output folder (the key of its line).
    private func key(_ output: String) -> String {
        output.hasPrefix(outDir) ? String(output.dropFirst(outDir.count)) : output
    }

    /// The recipe of preparing `input` with `settings` (a description of the options that shape
    /// the output) into `format`: a 64-bit FNV-1a digest in hex; `nil` when the input cannot be
    /// looked at (standard input, a file that is gone).
    package static func recipe(input: String, settings: String) -> String? {
        var info = stat()
        guard input != StandardStreams.name, stat(input, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return digest("v1|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)|\(info.st_ino)|\(info.st_dev)|\(settings)")
    }

    /// Whether `output` was finished from this recipe and is still there as written.
    package func isFinished(_ output: String, recipe: String) -> Bool {
        guard let entry = finished[key(output)], entry.recipe == recipe else { return false }
        var info = stat()
        return lstat(output, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && Int(info.st_size) == entry.bytes
    }

    /// Records `output` as finished from `recipe` with `bytes` bytes. A ledger that cannot be
    /// written only means a later run prepares the photo again.
    package func record(_ output: String, recipe: String, bytes: Int) {
        guard !output.contains("\n"), let path = Self.ledgerPath(outDir) else { return }
        guard Folder.create(String(path[..<path.lastIndex(of: "/")!])) == nil else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let line = Array("\(recipe) \(bytes) \(key(output))\n".utf8)
        _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    private static func contents(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count < 64 << 20 {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
