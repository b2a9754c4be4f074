/// Two cores on one JPEG: a baseline file whose restart markers begin MCU rows is
/// decoded *and resized* as a top and a bottom half at once (the top on the calling thread, the
/// bottom as a job beside it), each with its own decompressor and its own plane resizers, writing
/// its own output rows.
///
/// The top half reads the file as it is and stops after its MCU rows, as far down as its last output
/// rows' filters reach; the bottom half reads a second JPEG cut from the file at the restart marker
/// that gives the halves about equal work (``JPEGRestartBands/balancedCut(_:header:layout:)``) and
/// makes the output rows whose filters read nothing above it (``RowSplit``). Raw planes need no
/// upsampling across rows, so each half's rows are the single decoder's rows byte for byte, and
/// every output row is computed from the same rows with the same weights: the planes are identical
/// to the single path's. Nothing is handed between threads row by row (the single path's decoder →
/// resizer hand-over is what kept it at 1.2 CPUs).
///
/// The planar output's stage alongside is told of each band's rows as writer 0 (top) and 1
/// (bottom): the JPEG encoded alongside is then encoded as two parts at once
/// (``JPEGPlanesEncoder``), each by its band's own job: two threads, two cores. Anything
/// unexpected (a file that cannot be cut, a half that fails) stops the other half and returns
/// `nil`: the single decoder then decodes the file, and reports its damage, as it always has.
extension JPEGDecoder {
    /// Two steps, each two jobs side by side on the resize's workers: opening (the bottom half
    /// finds the restart marker its band begins at and opens its stream while this thread opens the
    /// top half's and works out the resize weights), then decoding (each half into its own
    /// resizers). Both halves read `source` by position (pread for a file: the two never share a
    /// file position).
    func decodeBanded(_ source: JPEGSource, scale: Int, resize request: ResizeRequest, planar: PlanarOutput) -> DecodedImage? {
        let header = source.header
        guard let minimum = planar.twoDecoderMinimumPixels, let layout = JPEGRestartBands.layout(header),
              layout.width * layout.height >= minimum else { return nil }
        let upright = request.orientation.swapsDimensions ? request.target.transposed : request.target
        let subsampling = planar.subsampling
        let sizes = YCbCrImage.sampledSizes(upright, subsampling: subsampling)

        let shared = HandedOver(source)
        let (top, opened) = request.workers.sideBySide({ () -> (stream: JPEGStream, planes: [JPEGPlane], kernels: [PlaneKernel])? in
            guard let stream = try? JPEGStream(source, scaleDenominator: scale, planes: true),
                  let planes = stream.planes, planes.count == 3 else { return nil }
            return (stream, planes, PlaneKernel.forPlanes(sources: planes.map(\.size), uprightTargets: sizes,
                                                          orientation: request.orientation, filter: request.filter))
        }, and: { () -> HandedOver<(stream: JPEGStream, row: Int)>? in
            let source = shared.value
            guard let cut = JPEGRestartBands.balancedCut(JPEGByteWindow(source), header: header, layout: layout),
                  let stream = try? JPEGStream(prefix: cut.header, ranges: [cut.dataStart..<source.count], of: source,
                                               firstRestart: cut.firstRestart, scaleDenominator: scale) else { return nil }
            return HandedOver((stream, cut.row))
        })
        guard let top, let bottom = opened?.value,
              let split = RowSplit(planes: top.planes, kernels: top.kernels, mcuRows: layout.mcuRows, bottomRow: bottom.row),
              let own = bottom.stream.planes, own.count == 3 else { return nil }
        let (planes, kernels) = (top.planes, top.kernels)
        guard (0..<3).allSatisfy({
            own[$0].stride == planes[$0].stride && own[$0].rowsPerRead == planes[$0].rowsPerRead
                && own[$0].size.width == planes[$0].size.width
                && own[$0].size.height == planes[$0].size.height - split.bottomFirstRows[$0]
        }) else { return nil }
        var encoded: EncodedImage?
        let image = try? YCbCrImage.make(size: upright, subsampling: subsampling) { (outputs) throws(PhotoError) in
            let destinations = (0..<3).map {
                OrientedDestination(stored: kernels[$0].target, orientation: request.orientation, channels: 1, base: outputs[$0])
            }
            let topResizers = (0..<3).map {
                PlaneResizer(kernel: kernels[$0], columns: 0..<kernels[$0].target.width, output: destinations[$0],
                             rows: 0..<split.outputSplit[$0])
            }
            let bottomResizers = (0..<3).map {
                PlaneResizer(kernel: kernels[$0], columns: 0..<kernels[$0].target.width, output: destinations[$0],
                             rows: split.outputSplit[$0]..<kernels[$0].target.height, firstSourceRow: split.bottomFirstRows[$0])
            }
            let sink = planar.alongside?()
            if let sink {
                try sink.open(planes: outputs, sizes: sizes, writers: .rowBands(splits: split.outputSplit), on: request.workers)
                for plane in 0..<3 {
                    topResizers[plane].onRows = { sink.finished(plane: plane, writer: 0, rows: $0) }
                    bottomResizers[plane].onRows = { sink.finished(plane: plane, writer: 1, rows: $0) }
                }
            }
            // Whichever half fails stops the other instead of letting it decode on for nothing.
            let stop = StopFlag()
            let bottomJob = HandedOver((stream: bottom.stream, resizers: bottomResizers))
            let (topFailure, bottomFailure) = request.workers.sideBySide({
                DecodeIntoResizers.run(top.stream, planes: planes, resizers: topResizers, mcuRows: split.topMCURows, stop: stop)
            }, and: {
                DecodeIntoResizers.run(bottomJob.value.stream, planes: planes, resizers: bottomJob.value.resizers,
                                       mcuRows: nil, stop: stop)
            })
            let complete = topResizers.allSatisfy(\.isComplete) && bottomResizers.allSatisfy(\.isComplete)
            if let failure = topFailure ?? bottomFailure ?? (complete ? nil : .truncated(.jpeg, detail: "a row band ended early")) {
                sink?.abandon()
                throw failure
            }
            encoded = try sink?.close()
        }
        return image.map {
            DecodedImage(planes: $0, encoded: encoded, decodedSize: PixelSize(width: top.stream.width, height: top.stream.height))
        }
    }
}

/// Where the halves meet, per plane: the bottom half decodes the MCU rows from `bottomRow` (where
/// ``JPEGRestartBands/balancedCut(_:header:layout:)`` cut the file), and makes the output rows from
/// the first one whose filter reads nothing above it (`outputSplit[c]`); the top half makes the
/// output rows above those from MCU rows `0..<topMCURows`, which go as far down as their filters reach.
struct RowSplit {
    let topMCURows: Int
    let outputSplit: [Int]
    /// The plane row the bottom half's first MCU row begins with, per plane.
    let bottomFirstRows: [Int]

    /// - Parameter bottomRow: the bottom band's first MCU row.
    init?(planes: [JPEGPlane], kernels: [PlaneKernel], mcuRows: Int, bottomRow bottom: Int) {
        guard bottom >= 1, bottom < mcuRows else { return nil }
        var outputSplit: [Int] = [], top = 0
        for c in 0..<3 {
            let rowsPerMCURow = planes[c].rowsPerRead
            let vertical = kernels[c].vertical
            let height = kernels[c].target.height
            // The first output row that reads no row above the bottom band.
            var split = 0
            while split < height, vertical.starts[split] < bottom * rowsPerMCURow { split += 1 }
            guard split > 0, split < height else { return nil }
            outputSplit.append(split)
            let reach = min(planes[c].size.height, vertical.starts[split - 1] + vertical.counts[split - 1])
            top = max(top, (reach + rowsPerMCURow - 1) / rowsPerMCURow)
        }
        guard top < mcuRows else { return nil }
        topMCURows = top
        self.outputSplit = outputSplit
        bottomFirstRows = planes.map { bottom * $0.rowsPerRead }
    }
}
