import Foundation

/// Places bucketed by their point in cells of a fixed size in degrees, for the neighbours of a
/// place at import (``PlaceHierarchy``): a few hundred distance checks instead of all of them.
struct PlaceGrid {
    let cellDegrees: Double
    private var cells: [Int: [Int32]] = [:]
    /// Cells around the globe's circle of latitude.
    private let longitudeCells: Int

    /// - Parameter members: indices into `places` to bucket.
    init(_ places: [Place], members: some Sequence<Int>, cellDegrees: Double) {
        self.cellDegrees = cellDegrees
        longitudeCells = Int((360 / cellDegrees).rounded(.up))
        for index in members {
            cells[key(row: row(places[index].latitude), column: column(places[index].longitude)), default: []].append(Int32(index))
        }
    }

    private func row(_ latitude: Double) -> Int { Int(((latitude + 90) / cellDegrees).rounded(.down)) }
    private func column(_ longitude: Double) -> Int {
        let raw = Int(((longitude + 180) / cellDegrees).rounded(.down))
        return ((raw % longitudeCells) + longitudeCells) % longitudeCells
    }
    private func key(row: Int, column: Int) -> Int { row * 100_000 + column }

    /// Calls `body` with the index of every member that may lie within `km` of the point (a box
    /// of cells around it; the caller measures the distance).
    func forEach(around point: (latitude: Double, longitude: Double), km: Double, _ body: (Int) -> Void) {
        let latitudeSpan = km / 111.0
        let cosine = cos(point.latitude * .pi / 180)
        let longitudeSpan = cosine < 0.01 ? 180 : min(180, km / (111.32 * cosine))
        let rows = row(max(-90, point.latitude - latitudeSpan))...row(min(90, point.latitude + latitudeSpan))
        let span = Int((longitudeSpan / cellDegrees).rounded(.up))
        let centre = column(point.longitude)
        let columns = min(longitudeCells, 2 * span + 1)
        for row in rows {
            for offset in 0..<columns {
                let column = ((centre - span + offset) % longitudeCells + longitudeCells) % longitudeCells
                guard let members = cells[key(row: row, column: column)] else { continue }
                for member in members { body(Int(member)) }
            }
        }
    }

    /// The distance between two points in kilometres, on a flat projection around their mean
    /// latitude: within a fraction of a percent of the great circle over tens of kilometres, and
    /// without a trigonometric call per pair beyond one cosine.
    static func nearKm(_ a: (latitude: Double, longitude: Double), _ b: (latitude: Double, longitude: Double)) -> Double {
        var dLon = abs(a.longitude - b.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        let x = dLon * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        let y = a.latitude - b.latitude
        return (x * x + y * y).squareRoot() * 111.195
    }
}
