/// The stage after a planar resize, told which rows of the output planes are final as the
/// resizers write them: the plan names it (``PlanarOutput/alongside``: ``JPEGPlanesEncoder``, the
/// JPEG encoded while the planes are being made); a decoder knows it only as this, takes a fresh
/// one each time it opens planes, reports rows to it, and hands back what `close` returns.
///
/// One decode's: `open` once the planes exist, `finished` from the writers' threads, then `close`
/// when every row is written, or `abandon` if the decode failed (a decoder that then writes the
/// planes another way takes a new one).
protocol PlaneRowSink: AnyObject, Sendable {
    /// The output planes (`sizes[c]` samples each, rows packed, upright) exist and will be written
    /// as `writers` says; called on the decoding thread before any row is written. A stage with
    /// work of its own runs it as a job on `workers` (the decode's), ended by `close` or `abandon`.
    func open(planes: [UnsafeMutablePointer<UInt8>], sizes: [PixelSize], writers: PlaneWriters,
              on workers: Workers) throws(PhotoError)
    /// Writer `writer` of plane `plane` has written its rows up to `rows` (exclusive, counted from
    /// the plane's top). Called from the writers' threads.
    func finished(plane: Int, writer: Int, rows: Int)
    /// Every row of every plane has been reported: completes the stage's work and returns what it
    /// made (the encoded file), if anything.
    func close() throws(PhotoError) -> EncodedImage?
    /// The decode failed: stops the stage's work and drops it.
    func abandon()
}

/// How a decoder's resizers write the output planes.
enum PlaneWriters: Sendable, Equatable {
    /// Plane `c` by `counts[c]` writers side by side (column bands), each from the top down.
    case columnBands([Int])
    /// Each plane by two writers: writer 0 its rows `0..<splits[c]` from the top down, writer 1
    /// the rest, from row `splits[c]` down, at the same time.
    case rowBands(splits: [Int])
}
