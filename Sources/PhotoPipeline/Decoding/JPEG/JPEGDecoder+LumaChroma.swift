/// Two cores on one progressive JPEG: the luma and the chroma are decoded *and
/// resized* at once, each by its own decompressor (the luma's on the calling thread, the chroma's
/// as a job beside it), reading only its own scans.
///
/// A progressive file's time goes into decoding its scans, all of them before the first row comes
/// out, on one core; restart markers cannot help, as every scan covers the whole picture. But the
/// scans of one component never depend on another's (``JPEGScanScript``): the luma decompressor
/// reads the DC scans and the luma's AC scans, the chroma one the DC scans and the chroma's. Each
/// stores the coefficients of its own components only, so the two together hold what the single
/// decoder would. Raw planes need nothing across components, so each plane is the single decoder's
/// byte for byte, resized by the same kernels into the same output.
///
/// The planar output's stage alongside is told of each plane's rows as they are made. Anything unexpected (a
/// script that does not split, a decompressor that fails) returns `nil`: the single decoder then
/// decodes the file, and reports its damage, as it always has.
extension JPEGDecoder {
    /// Two steps on the resize's workers: reading the scans (the chroma decompressor its own as a
    /// job beside this thread, which reads the luma's), then the rows (the chroma's decoded into its
    /// resizers as one job, the luma's decoded on this thread and resized by another).
    func decodeByComponent(_ source: JPEGSource, info: ImageInfo, scale: Int, resize request: ResizeRequest,
                           planar: PlanarOutput) -> DecodedImage? {
        let subsampling = planar.subsampling
        guard let minimum = planar.twoDecoderMinimumPixels, info.storedSize.width * info.storedSize.height >= minimum,
              let script = JPEGScanScript(JPEGByteWindow(source)) else { return nil }
        let lumaRanges = script.ranges(keeping: [0]), chromaRanges = script.ranges(keeping: [1, 2])
        let shared = HandedOver(source)
        let (luma, opened) = request.workers.sideBySide({
            try? JPEGStream(ranges: lumaRanges, of: source, components: 0b001, scaleDenominator: scale)
        }, and: {
            (try? JPEGStream(ranges: chromaRanges, of: shared.value, components: 0b110, scaleDenominator: scale)).map(HandedOver.init)
        })
        guard let luma, let planes = luma.planes, planes.count == 3, let chroma = opened?.value,
              chroma.planes == planes else { return nil }
        let upright = request.orientation.swapsDimensions ? request.target.transposed : request.target
        let sizes = YCbCrImage.sampledSizes(upright, subsampling: subsampling)
        let kernels = PlaneKernel.forPlanes(sources: planes.map(\.size), uprightTargets: sizes,
                                            orientation: request.orientation, filter: request.filter)
        var encoded: EncodedImage?
        let image = try? YCbCrImage.make(size: upright, subsampling: subsampling) { (outputs) throws(PhotoError) in
            let resizers = (0..<3).map {
                PlaneResizer(kernel: kernels[$0], columns: 0..<kernels[$0].target.width,
                             output: OrientedDestination(stored: kernels[$0].target, orientation: request.orientation,
                                                         channels: 1, base: outputs[$0]))
            }
            let sink = planar.alongside?()
            if let sink {
                try sink.open(planes: outputs, sizes: sizes, writers: .columnBands([1, 1, 1]), on: request.workers)
                for plane in 0..<3 { resizers[plane].onRows = { sink.finished(plane: plane, writer: 0, rows: $0) } }
            }
            // Whichever decompressor fails stops the other instead of letting it decode on for nothing.
            let stop = StopFlag()
            let chromaJob = HandedOver((stream: chroma, resizers: [nil, resizers[1], resizers[2]]))
            let (lumaFailure, chromaFailure) = request.workers.sideBySide({
                Self.decodeLuma(luma, planes: planes, resizer: resizers[0], stop: stop, on: request.workers)
            }, and: {
                DecodeIntoResizers.run(chromaJob.value.stream, planes: planes, resizers: chromaJob.value.resizers,
                                       mcuRows: nil, stop: stop)
            })
            let complete = resizers.allSatisfy(\.isComplete)
            if let failure = lumaFailure ?? chromaFailure ?? (complete ? nil : .truncated(.jpeg, detail: "a component ended early")) {
                sink?.abandon()
                throw failure
            }
            encoded = try sink?.close()
        }
        return image.map { DecodedImage(planes: $0, encoded: encoded, decodedSize: PixelSize(width: luma.width, height: luma.height)) }
    }
}

extension JPEGDecoder {
    /// The luma's rows, resized by another job: by the time the luma decompressor has read its
    /// scans (two thirds of the file), the chroma one has long finished and its core is free.
    static func decodeLuma(_ stream: JPEGStream, planes: [JPEGPlane], resizer: PlaneResizer, stop: StopFlag,
                           on workers: Workers) -> PhotoError? {
        let reads = max(1, stripRows * 4 / planes[0].rowsPerRead)
        let strips = StripBuffers(sizes: planes.map { $0.stride * $0.rowsPerRead * reads })
        let luma = planes[0]
        do throws(PhotoError) {
            try StripPipeline.run(consumers: 1, handsOver: true, on: workers,
                                  read: { (slot) throws(PhotoError) in
                                      if stop.isSet { throw .truncated(.jpeg, detail: "the chroma decompressor failed") }
                                      return try strips.fill(slot, from: stream, planes: planes, reads: reads)
                                  },
                                  consume: { _, slot, _ in
                                      resizer.push(strips[slot, 0], count: luma.rowsPerRead * strips.reads[slot], stride: luma.stride)
                                  })
            try stream.finish()
            return nil
        } catch {
            stop.set()
            return error
        }
    }
}
