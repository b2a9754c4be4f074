extension PixelBuffer {
    /// The pixels turned upright according to `orientation` (all eight EXIF cases): each stored row
    /// is placed where ``OrientedDestination`` says, the mapping the decoders write through too.
    public func oriented(_ orientation: ExifOrientation) -> PixelBuffer {
        guard orientation != .up else { return self }
        let size = PixelSize(width: width, height: height)
        let upright = orientation.swapsDimensions ? size.transposed : size
        let rowBytes = self.rowBytes
        let out = [UInt8](unsafeUninitializedCapacity: pixels.count) { buffer, count in
            let destination = OrientedDestination(stored: size, orientation: orientation, channels: channels, base: buffer.baseAddress!)
            pixels.withUnsafeBufferPointer { src in
                for y in 0..<height { destination.write(row: src.baseAddress! + y * rowBytes, y: y, x: 0, count: width) }
            }
            count = buffer.count
        }
        return PixelBuffer(width: upright.width, height: upright.height, channels: channels, pixels: out)
    }
}
