import PetSpot
import PostgresNIO

extension PostgresAnnouncementStore {
    public func near(_ search: NearSearch, limit: Int, after cursor: NearCursor?) async throws -> NearPage {
        try await mapped { try await leased { connection in
            let box = search.box
            let scale = search.longitudeScale
            let species = search.filter.species?.rawValue, status = search.filter.status?.rawValue
            let since = search.since?.description
            let cursorMetric = cursor?.metric, cursorPosition = cursor?.position
            var rows: [(Int64, StoredAnnouncement, Double)] = []
            for longitudes in box.longitude {
                // The partial index on (latitude, longitude) gives the box; the metric orders and
                // pages inside the circle.
                let query: PostgresQuery = """
                    SELECT * FROM (
                        SELECT position, \(unescaped: StoredAnnouncement.columns),
                            ((latitude - \(search.latitude)) * (latitude - \(search.latitude))
                             + ((longitude - \(search.longitude)) * \(scale)) * ((longitude - \(search.longitude)) * \(scale))) AS metric
                        FROM announcement
                        WHERE latitude BETWEEN \(box.latitude.lowerBound) AND \(box.latitude.upperBound)
                          AND longitude BETWEEN \(longitudes.lowerBound) AND \(longitudes.upperBound)
                          AND deleted_at IS NULL AND NOT (latitude = 0 AND longitude = 0)
                          AND (closed_outcome IS NOT NULL) = \(search.filter.closed)
                          AND (\(species)::text IS NULL OR species = \(species))
                          AND (\(status)::text IS NULL OR status = \(status))
                          AND (\(since)::text IS NULL OR last_seen_date >= \(since))
                    ) inside
                    WHERE metric <= \(search.radiusMetric)
                      AND (\(cursorMetric)::double precision IS NULL OR metric > \(cursorMetric)
                           OR (metric = \(cursorMetric) AND position < \(cursorPosition)))
                    ORDER BY CASE WHEN \(search.newestFirst) THEN 0 ELSE metric END, position DESC
                    LIMIT \(limit + 1)
                    """
                for try await row in try await connection.query(query, logger: self.logger) {
                    let access = row.makeRandomAccess()
                    rows.append((try access["position"].decode(Int64.self), try StoredAnnouncement(access),
                                 try access["metric"].decode(Double.self)))
                }
            }
            return search.page(of: rows, limit: limit)
        } }
    }
}
