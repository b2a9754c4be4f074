import GRDB
import PetSpot

extension SQLiteAnnouncementStore {
    public func near(_ search: NearSearch, limit: Int, after cursor: NearCursor?) async throws -> NearPage {
        try await pool.read { db in
            let box = search.box
            let scale = search.longitudeScale
            var rows: [(Int64, StoredAnnouncement, Double)] = []
            for longitudes in box.longitude {
                // The R*Tree gives the box; the metric orders and pages inside the circle.
                let found = try Row.fetchAll(db, sql: """
                    SELECT a.position, \(StoredAnnouncement.columns.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")),
                        ((a.latitude - :lat) * (a.latitude - :lat) + ((a.longitude - :lon) * :scale) * ((a.longitude - :lon) * :scale)) AS metric
                    FROM announcement_box b JOIN announcement a ON a.position = b.position
                    WHERE b.min_latitude <= :maxLat AND b.max_latitude >= :minLat
                      AND b.min_longitude <= :maxLon AND b.max_longitude >= :minLon
                      AND a.deleted_at IS NULL AND (a.closed_outcome IS NOT NULL) = :closed
                      AND (:species IS NULL OR a.species = :species) AND (:status IS NULL OR a.status = :status)
                      AND (:since IS NULL OR a.last_seen_date >= :since)
                      AND metric <= :radius
                      AND (:cursorMetric IS NULL OR metric > :cursorMetric OR (metric = :cursorMetric AND a.position < :cursorPosition))
                    ORDER BY CASE WHEN :newest THEN 0 ELSE metric END, a.position DESC
                    LIMIT :limit
                    """, arguments: [
                        "lat": search.latitude, "lon": search.longitude, "scale": scale,
                        "minLat": box.latitude.lowerBound, "maxLat": box.latitude.upperBound,
                        "minLon": longitudes.lowerBound, "maxLon": longitudes.upperBound,
                        "closed": search.filter.closed, "species": search.filter.species?.rawValue,
                        "status": search.filter.status?.rawValue, "since": search.since?.description,
                        "radius": search.radiusMetric, "cursorMetric": cursor?.metric, "cursorPosition": cursor?.position,
                        "limit": limit + 1, "newest": search.newestFirst,
                    ])
                rows += try found.map { row in (row["position"], try StoredAnnouncement(row: row), row["metric"]) }
            }
            return search.page(of: rows, limit: limit)
        }
    }
}
