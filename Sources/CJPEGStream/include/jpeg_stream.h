#pragma once
#include <stddef.h>

/// A libjpeg-turbo decompressor that hands out scanlines a strip at a time.
///
/// libjpeg reports errors with longjmp; every function here does its own setjmp around exactly
/// the libjpeg calls it makes and returns a status, so no longjmp ever crosses a Swift frame.
typedef struct pj_stream pj_stream;

enum {
    PJ_OK = 0,
    PJ_ERROR = -1,
    PJ_TOO_LITTLE_DATA = -2,   /* pj_begin: the header declares far more pixels than the data can hold */
};

/// Warning flags collected while decoding (libjpeg only warns on these and carries on).
enum {
    PJ_WARN_PREMATURE_END = 1,   /* JWRN_JPEG_EOF: the data stopped; libjpeg pads with grey */
    PJ_WARN_EXTRANEOUS = 2,      /* JWRN_EXTRANEOUS_DATA: junk between markers; harmless */
    PJ_WARN_CORRUPT_DATA = 4,    /* the entropy-coded data is damaged (bad Huffman/arithmetic code, lost restart marker) */
    PJ_WARN_DATA_ENDS_EARLY = 8, /* JWRN_HIT_MARKER: a scan's data stops before its last block; libjpeg pads with grey */
    PJ_WARN_OTHER = 16,          /* any other warning (unknown JFIF revision, bad ICC marker, …) */
    /* The ones the policy refuses: the picture would come out with grey or garbled blocks. */
    PJ_WARN_FATAL = PJ_WARN_PREMATURE_END | PJ_WARN_CORRUPT_DATA | PJ_WARN_DATA_ENDS_EARLY,
};

/// Output colour layouts.
enum {
    PJ_GRAY = 1,
    PJ_RGB = 3,
    PJ_CMYK = 4,   /* Adobe CMYK/YCCK, inverted values as libjpeg outputs them */
    PJ_PLANES = 5, /* YCbCr planes at their own sampling (raw data; read with pj_read_planes) */
};

pj_stream *pj_create(void);
void pj_destroy(pj_stream *stream);

/// Reads the header, sets the DCT scale to 1/`scale_denom` (1, 2, 4 or 8) and starts decompression.
/// For progressive files this consumes every scan. `max_scans` refuses files with more scans.
/// `max_coefficient_bytes` refuses (PJ_TOO_LITTLE_DATA, before anything image-sized is allocated)
/// a header whose DCT coefficients (128 bytes per 8×8 block, all components) would take more:
/// progressive and multi-scan files hold all of them in memory at once.
/// With `want_planes`, a 3-component YCbCr file is decoded to its Y, Cb and Cr planes as stored (no
/// chroma upsampling, no colour conversion): layout PJ_PLANES, read with pj_read_planes.
int pj_begin(pj_stream *stream, const unsigned char *data, unsigned long size, int scale_denom, int max_scans,
             unsigned long long max_coefficient_bytes, int want_planes);

/// As pj_begin, reading the file `fd` from its start through a 64 KiB window (with pread; the
/// descriptor's offset is not used) instead of holding it in memory. The end of the file, or a
/// file that shrinks while it is read, is a premature end (PJ_WARN_PREMATURE_END).
int pj_begin_fd(pj_stream *stream, int fd, int scale_denom, int max_scans, unsigned long long max_coefficient_bytes,
                int want_planes);

/// As pj_begin for planes, reading `prefix` (`prefix_size` bytes, copied; may be empty), then the
/// byte ranges `ranges` (`count` start, end pairs) one after another, as one JPEG: the ranges from
/// `data` when it is not NULL, else from the file `fd` (pread, through a 64 KiB window).
/// With `components` 0 every component is decoded. Otherwise only those in that bit mask (bit 0:
/// Y), and the file must be a progressive YCbCr JPEG: the others' coefficients are never stored,
/// and their rows in pj_read_planes's strips are left as they were.
int pj_begin_ranges(pj_stream *stream, const unsigned char *prefix, unsigned long prefix_size, const unsigned char *data,
                    int fd, const long long *ranges, int count, int components, int scale_denom, int max_scans,
                    unsigned long long max_coefficient_bytes);

/// Before pj_begin_ranges: the first restart marker its data meets is RST`number` (0–7), not RST0 —
/// a band cut from a file after that file's markers RST0 … RST(`number` − 1) (libjpeg checks the
/// numbering from the scan's start, counting on from there). No effect on a file without a restart interval.
void pj_set_first_restart(pj_stream *stream, int number);

/// The size the header declares (valid once pj_begin has read it, even when it fails).
int pj_image_width(const pj_stream *stream);
int pj_image_height(const pj_stream *stream);
/// 128 bytes per 8×8 DCT block over every component (valid once the header is read).
unsigned long long pj_coefficient_bytes(const pj_stream *stream);

int pj_output_width(const pj_stream *stream);
int pj_output_height(const pj_stream *stream);
/// PJ_GRAY, PJ_RGB or PJ_CMYK.
int pj_output_layout(const pj_stream *stream);

/// Decodes up to `max_rows` scanlines into `rows` (`stride` bytes apart); returns the number read, or PJ_ERROR.
int pj_read(pj_stream *stream, unsigned char *rows, size_t stride, int max_rows);

/// PJ_PLANES only. Plane `component` (0 Y, 1 Cb, 2 Cr): its size at the output scale, the bytes a
/// row of its strip buffer must hold (whole DCT blocks, at least the width) and the rows of that
/// plane each pj_read_planes call writes (its strip buffer must hold that many rows).
int pj_plane_width(const pj_stream *stream, int component);
int pj_plane_height(const pj_stream *stream, int component);
int pj_plane_stride(const pj_stream *stream, int component);
int pj_plane_rows(const pj_stream *stream, int component);

/// PJ_PLANES only: decodes the next row of iMCUs into the three strip buffers (`strides` bytes
/// apart); returns the output rows it covers (image rows; the last call may cover rows past the
/// bottom, whose plane rows are not valid), 0 at the end, or PJ_ERROR.
int pj_read_planes(pj_stream *stream, unsigned char *const planes[3], const size_t strides[3]);

/// Finishes decompression (reads to EOI); PJ_ERROR if that fails.
int pj_finish(pj_stream *stream);

/// PJ_WARN_* flags seen so far.
int pj_warnings(const pj_stream *stream);

/// The last error or warning text from libjpeg.
const char *pj_message(const pj_stream *stream);
