import CHeifShim

/// HEIC/HEIF (and AVIF) through libheif, which applies the container's rotation and mirroring.
/// libheif is loaded the first time a HEIF file arrives (`CHeifShim`), not when cardscan starts.
enum HEIFDecoder {
    /// Width and height of the primary image as displayed.
    static func readHeader(_ bytes: [UInt8], source: String) throws(IngestError) -> (Int, Int) {
        try withPrimaryImage(bytes, source: source) { handle throws(IngestError) in
            (Int(cs_heif_image_handle_get_width(handle)), Int(cs_heif_image_handle_get_height(handle)))
        }
    }

    static func decode(_ bytes: [UInt8], grayscale: Bool, limits: ImageLimits, source: String) throws(IngestError) -> PixelImage {
        try withPrimaryImage(bytes, source: source) { handle throws(IngestError) -> PixelImage in
            let w = Int(cs_heif_image_handle_get_width(handle)), h = Int(cs_heif_image_handle_get_height(handle))
            try EncodedImage.checkSize(w, h, format: .heic, source: source)
            guard w * h <= limits.maxPixels else {
                throw IngestError(.tooLarge, source: source, reason: "the HEIF image is \(w) x \(h) pixels, over the limit")
            }
            var image: OpaquePointer?
            let err = cs_heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil)
            guard err.code == heif_error_Ok, let image else {
                throw IngestError(.corrupt, source: source, reason: "the HEIF image cannot be decoded (\(Self.text(err))); the file is damaged or uses an unsupported codec")
            }
            defer { cs_heif_image_release(image) }
            var stride: Int32 = 0
            guard let plane = cs_heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
                throw IngestError(.corrupt, source: source, reason: "the HEIF image has no pixel data")
            }
            let iw = Int(cs_heif_image_get_width(image, heif_channel_interleaved))
            let ih = Int(cs_heif_image_get_height(image, heif_channel_interleaved))
            let rowBytes = Int(stride)
            return PixelImage.packing(width: iw, height: ih, grayscale: grayscale) { x, y in
                let p = plane + y * rowBytes + 3 * x
                return (p[0], p[1], p[2])
            }
        }
    }

    /// The primary image's metadata blocks, as `HEIFContainer.metadata` reports them.
    static func metadata(_ bytes: [UInt8]) -> HEIFContainer.Metadata? {
        try? withPrimaryImage(bytes, source: "") { handle throws(IngestError) -> HEIFContainer.Metadata in
            let count = Int(cs_heif_image_handle_get_number_of_metadata_blocks(handle, nil))
            var ids = [heif_item_id](repeating: 0, count: count)
            _ = cs_heif_image_handle_get_list_of_metadata_block_IDs(handle, nil, &ids, Int32(count))
            var blocks: [(type: String, bytes: [UInt8])] = []
            for id in ids {
                let type = cs_heif_image_handle_get_metadata_type(handle, id).map { String(cString: $0) } ?? ""
                let size = cs_heif_image_handle_get_metadata_size(handle, id)
                guard size <= bytes.count else { continue }  // a block cannot be larger than its file
                var block = [UInt8](repeating: 0, count: size)
                guard cs_heif_image_handle_get_metadata(handle, id, &block).code == heif_error_Ok else { continue }
                blocks.append((type, block))
            }
            return HEIFContainer.Metadata(
                blocks: blocks,
                hasColorProfile: cs_heif_image_handle_get_color_profile_type(handle) != heif_color_profile_type_not_present,
                thumbnails: Int(cs_heif_image_handle_get_number_of_thumbnails(handle)))
        }
    }

    /// Runs `body` with the primary image's handle. libheif reads the bytes in place (no copy),
    /// so the context lives, and is freed, entirely inside the closure that lends them.
    private static func withPrimaryImage<T>(_ bytes: [UInt8], source: String,
                                            _ body: (OpaquePointer) throws(IngestError) -> T) throws(IngestError) -> T {
        if let failure = cs_heif_load() {
            throw IngestError(.unsupportedFormat, source: source, reason: String(cString: failure))
        }
        return try bytes.withUnsafeBufferPointer { (buf: UnsafeBufferPointer<UInt8>) throws(IngestError) -> T in
            guard let context = cs_heif_context_alloc() else {
                throw IngestError(.corrupt, source: source, reason: "libheif could not allocate a context")
            }
            defer { cs_heif_context_free(context) }
            let readError = cs_heif_context_read_from_memory_without_copy(context, buf.baseAddress, buf.count, nil)
            guard readError.code == heif_error_Ok else {
                throw IngestError(.corrupt, source: source, reason: "the HEIF container cannot be read (\(text(readError))); the file is damaged or truncated")
            }
            var handle: OpaquePointer?
            let handleError = cs_heif_context_get_primary_image_handle(context, &handle)
            guard handleError.code == heif_error_Ok, let handle else {
                throw IngestError(.corrupt, source: source, reason: "the HEIF file has no primary image (\(text(handleError)))")
            }
            defer { cs_heif_image_handle_release(handle) }
            return try body(handle)
        }
    }

    private static func text(_ error: heif_error) -> String {
        guard let message = error.message else { return "error \(error.code.rawValue)" }
        return String(cString: message)
    }
}

/// What a HEIF container holds besides the image, for the metadata report.
public enum HEIFContainer {
    public struct Metadata: Sendable {
        /// The primary image's metadata items: type ("Exif", "mime" for XMP ...) and bytes.
        public let blocks: [(type: String, bytes: [UInt8])]
        public let hasColorProfile: Bool
        public let thumbnails: Int
    }

    /// The metadata of the primary image; nil when the container cannot be read.
    public static func metadata(_ bytes: [UInt8]) -> Metadata? { HEIFDecoder.metadata(bytes) }
}
