// Scanline-at-a-time JPEG decoding over libjpeg-turbo's libjpeg API.
// Every libjpeg call runs under a setjmp in the same function; errors come back as PJ_ERROR.
#include "jpeg_stream.h"

#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include "codecs_names.h"
#include <jpeglib.h>
#include <jerror.h>

struct pj_error_manager {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

struct pj_stream {
    struct jpeg_decompress_struct info;
    struct pj_error_manager error;
    struct jpeg_progress_mgr progress;
    int started;
    int warnings;
    int max_scans;
    int layout;
    char message[JMSG_LENGTH_MAX];
    /* pj_begin_fd and pj_begin_ranges: a prefix, then byte ranges read one after another (start,
       end pairs), from `range_data` when it is set, else from the file `fd` through `file_buffer`;
       the range being read, and where the next read starts. */
    struct jpeg_source_mgr file_source;
    int fd;
    long long file_offset;
    unsigned char *file_buffer;
    const unsigned char *range_data;
    unsigned char *prefix;
    size_t prefix_size;
    int prefix_read;
    long long *ranges;
    int range_count;
    int range_index;
    /* Components decoded (bit c: component c); the others' coefficients go to scratch rows. */
    int components;
    int barray_requests;
    /* The number (0–7) of the first restart marker the scan's data meets (pj_set_first_restart);
       when it is not 0, the range data is renumbered as it is read (pj_renumber_restarts), and
       whether the last byte handed out was 0xFF (a marker split between two reads). */
    int first_restart;
    int after_ff;
    struct pj_scratch_array {
        JBLOCKARRAY rows;
        JDIMENSION max_rows;
    } scratch[MAX_COMPONENTS];
    jvirt_barray_ptr (*request_virt_barray)(j_common_ptr, int, boolean, JDIMENSION, JDIMENSION, JDIMENSION);
    JBLOCKARRAY (*access_virt_barray)(j_common_ptr, jvirt_barray_ptr, JDIMENSION, JDIMENSION, boolean);
};

/* The window a file is read through: the whole input is never in memory at once. */
#define PJ_FILE_WINDOW 65536

static void pj_error_exit(j_common_ptr info) {
    struct pj_error_manager *error = (struct pj_error_manager *)info->err;
    pj_stream *stream = (pj_stream *)info->client_data;
    (*info->err->format_message)(info, stream->message);
    longjmp(error->jump, 1);
}

static void pj_emit_message(j_common_ptr info, int level) {
    if (level >= 0) return;   /* trace messages */
    pj_stream *stream = (pj_stream *)info->client_data;
    int code = info->err->msg_code;
    int had_fatal = stream->warnings & PJ_WARN_FATAL;
    switch (code) {
    case JWRN_JPEG_EOF: stream->warnings |= PJ_WARN_PREMATURE_END; break;
    case JWRN_HIT_MARKER: stream->warnings |= PJ_WARN_DATA_ENDS_EARLY; break;
    case JWRN_HUFF_BAD_CODE:
    case JWRN_ARITH_BAD_CODE:
    case JWRN_MUST_RESYNC: stream->warnings |= PJ_WARN_CORRUPT_DATA; break;
    case JWRN_EXTRANEOUS_DATA:
    case JWRN_NOT_SEQUENTIAL: stream->warnings |= PJ_WARN_EXTRANEOUS; break;
    default: stream->warnings |= PJ_WARN_OTHER; break;
    }
    /* The first fatal warning names the damage; later warnings are usually its echo. */
    if (!had_fatal) (*info->err->format_message)(info, stream->message);
    info->err->num_warnings++;
}

/* Hostile progressive files can hold thousands of scans; refuse them as TurboJPEG's LIMITSCANS does. */
static void pj_progress(j_common_ptr info) {
    pj_stream *stream = (pj_stream *)info->client_data;
    if (info->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)info;
        if (d->input_scan_number > stream->max_scans) {
            snprintf(stream->message, sizeof stream->message, "the progressive file has more than %d scans", stream->max_scans);
            longjmp(stream->error.jump, 1);
        }
    }
}

pj_stream *pj_create(void) {
    pj_stream *stream = calloc(1, sizeof *stream);
    if (!stream) return NULL;
    stream->info.err = jpeg_std_error(&stream->error.base);
    stream->error.base.error_exit = pj_error_exit;
    stream->error.base.emit_message = pj_emit_message;
    stream->info.client_data = stream;
    if (setjmp(stream->error.jump)) {
        free(stream);
        return NULL;
    }
    jpeg_create_decompress(&stream->info);
    stream->progress.progress_monitor = pj_progress;
    stream->info.progress = &stream->progress;
    return stream;
}

void pj_destroy(pj_stream *stream) {
    if (!stream) return;
    jpeg_destroy_decompress(&stream->info);   /* never errors */
    free(stream->file_buffer);
    free(stream->ranges);
    free(stream->prefix);
    free(stream);
}

static void pj_file_init(j_decompress_ptr info) { (void)info; }
static void pj_file_term(j_decompress_ptr info) { (void)info; }

/* A band cut from a file at one of its restart markers meets RST<first_restart> first, where a
   decoder starting a scan expects RST0: the markers in these bytes are renumbered so that the
   first one the band meets is RST0 (RSTm becomes RST(m - first_restart) mod 8). In
   entropy-coded data 0xFF is followed by 0x00 (a stuffed byte), fill bytes (0xFF) or a marker, so
   0xFF followed by 0xD0–0xD7 is always a restart marker. libjpeg then decodes the band through its
   public API alone, as it would a file of its own. */
static void pj_renumber_restarts(pj_stream *stream, unsigned char *data, size_t count) {
    if (!count) return;
    size_t next = 0;   /* the byte after a 0xFF */
    if (!stream->after_ff) {
        unsigned char *ff = memchr(data, 0xFF, count);
        if (!ff) return;
        next = (size_t)(ff - data) + 1;
    }
    while (next < count) {
        unsigned char byte = data[next];
        if (byte >= 0xD0 && byte <= 0xD7) data[next] = (unsigned char)(0xD0 + ((byte - 0xD0 - stream->first_restart) & 7));
        if (byte == 0xFF) { next++; continue; }
        unsigned char *ff = memchr(data + next + 1, 0xFF, count - next - 1);
        if (!ff) break;
        next = (size_t)(ff - data) + 1;
    }
    stream->after_ff = data[count - 1] == 0xFF;
}

/* The next piece of the current range (a window's worth from a file, the whole rest from memory);
   past the last range, a fake EOI and the premature-end warning. */
static boolean pj_ranges_fill(j_decompress_ptr info) {
    pj_stream *stream = (pj_stream *)info->client_data;
    if (!stream->prefix_read) {
        stream->prefix_read = 1;
        if (stream->prefix_size) {
            info->src->next_input_byte = stream->prefix;
            info->src->bytes_in_buffer = stream->prefix_size;
            return TRUE;
        }
    }
    while (stream->range_index < stream->range_count
           && stream->file_offset >= stream->ranges[2 * stream->range_index + 1]) {
        stream->range_index++;
        if (stream->range_index < stream->range_count) stream->file_offset = stream->ranges[2 * stream->range_index];
    }
    if (stream->range_index >= stream->range_count) {
        WARNMS(info, JWRN_JPEG_EOF);
        static const unsigned char eoi[2] = { 0xFF, JPEG_EOI };
        info->src->next_input_byte = eoi;
        info->src->bytes_in_buffer = 2;
        return TRUE;
    }
    long long left = stream->ranges[2 * stream->range_index + 1] - stream->file_offset;
    if (stream->range_data && stream->first_restart) {
        size_t count = left < PJ_FILE_WINDOW ? (size_t)left : PJ_FILE_WINDOW;
        memcpy(stream->file_buffer, stream->range_data + stream->file_offset, count);
        pj_renumber_restarts(stream, stream->file_buffer, count);
        stream->file_offset += (long long)count;
        info->src->next_input_byte = stream->file_buffer;
        info->src->bytes_in_buffer = count;
        return TRUE;
    }
    if (stream->range_data) {
        info->src->next_input_byte = stream->range_data + stream->file_offset;
        info->src->bytes_in_buffer = (size_t)left;
        stream->file_offset += left;
        return TRUE;
    }
    size_t want = left < PJ_FILE_WINDOW ? (size_t)left : PJ_FILE_WINDOW;
    ssize_t n;
    do {
        n = pread(stream->fd, stream->file_buffer, want, (off_t)stream->file_offset);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        snprintf(stream->message, sizeof stream->message, "reading the file failed: %s", strerror(errno));
        longjmp(stream->error.jump, 1);
    }
    if (n == 0) {   /* the file shrank */
        stream->range_index = stream->range_count;
        return pj_ranges_fill(info);
    }
    if (stream->first_restart) pj_renumber_restarts(stream, stream->file_buffer, (size_t)n);
    stream->file_offset += n;
    info->src->next_input_byte = stream->file_buffer;
    info->src->bytes_in_buffer = (size_t)n;
    return TRUE;
}

/* Skips within the ranges as if they were one stream of bytes. */
static void pj_ranges_skip(j_decompress_ptr info, long count) {
    struct jpeg_source_mgr *source = info->src;
    while (count > 0) {
        if (source->bytes_in_buffer == 0) (void)pj_ranges_fill(info);
        size_t step = (size_t)count < source->bytes_in_buffer ? (size_t)count : source->bytes_in_buffer;
        source->next_input_byte += step;
        source->bytes_in_buffer -= step;
        count -= (long)step;
    }
}

unsigned long long pj_coefficient_bytes(const pj_stream *stream) {
    unsigned long long total = 0;
    for (int i = 0; i < stream->info.num_components; i++) {
        const jpeg_component_info *component = &stream->info.comp_info[i];
        total += (unsigned long long)component->width_in_blocks * component->height_in_blocks * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

void pj_set_first_restart(pj_stream *stream, int number) { stream->first_restart = number & 7; }

int pj_image_width(const pj_stream *stream) { return (int)stream->info.image_width; }
int pj_image_height(const pj_stream *stream) { return (int)stream->info.image_height; }

static int pj_start(pj_stream *stream, int scale_denom, int max_scans, unsigned long long max_coefficient_bytes,
                    int want_planes);

int pj_begin(pj_stream *stream, const unsigned char *data, unsigned long size, int scale_denom, int max_scans,
             unsigned long long max_coefficient_bytes, int want_planes) {
    jpeg_mem_src(&stream->info, data, size);
    return pj_start(stream, scale_denom, max_scans, max_coefficient_bytes, want_planes);
}

/* Reads `prefix`, then `ranges` of `data` (or of the file `fd`, through the window), as one JPEG. */
static int pj_begin_source(pj_stream *stream, const unsigned char *prefix, unsigned long prefix_size,
                           const unsigned char *data, int fd, const long long *ranges, int count, int components,
                           int scale_denom, int max_scans, unsigned long long max_coefficient_bytes, int want_planes) {
    if (count < 1) {
        snprintf(stream->message, sizeof stream->message, "no bytes to read");
        return PJ_ERROR;
    }
    stream->ranges = malloc(sizeof *ranges * 2 * (size_t)count);
    stream->file_buffer = data && !stream->first_restart ? NULL : malloc(PJ_FILE_WINDOW);
    stream->prefix = prefix_size ? malloc(prefix_size) : NULL;
    if (!stream->ranges || ((!data || stream->first_restart) && !stream->file_buffer) || (prefix_size && !stream->prefix)) {
        snprintf(stream->message, sizeof stream->message, "out of memory");
        return PJ_ERROR;
    }
    memcpy(stream->ranges, ranges, sizeof *ranges * 2 * (size_t)count);
    if (prefix_size) memcpy(stream->prefix, prefix, prefix_size);
    stream->prefix_size = prefix_size;
    stream->prefix_read = 0;
    stream->range_count = count;
    stream->range_index = 0;
    stream->range_data = data;
    stream->fd = fd;
    stream->file_offset = ranges[0];
    stream->components = components;
    stream->file_source.init_source = pj_file_init;
    stream->file_source.fill_input_buffer = pj_ranges_fill;
    stream->file_source.skip_input_data = pj_ranges_skip;
    stream->file_source.resync_to_restart = jpeg_resync_to_restart;
    stream->file_source.term_source = pj_file_term;
    stream->file_source.bytes_in_buffer = 0;
    stream->file_source.next_input_byte = NULL;
    stream->info.src = &stream->file_source;
    return pj_start(stream, scale_denom, max_scans, max_coefficient_bytes, want_planes);
}

/* The whole file: one range to its end, wherever that is (a file that shrinks ends early). */
int pj_begin_fd(pj_stream *stream, int fd, int scale_denom, int max_scans, unsigned long long max_coefficient_bytes,
                int want_planes) {
    const long long whole[2] = { 0, LLONG_MAX };
    return pj_begin_source(stream, NULL, 0, NULL, fd, whole, 1, 0, scale_denom, max_scans, max_coefficient_bytes,
                           want_planes);
}

int pj_begin_ranges(pj_stream *stream, const unsigned char *prefix, unsigned long prefix_size, const unsigned char *data,
                    int fd, const long long *ranges, int count, int components, int scale_denom, int max_scans,
                    unsigned long long max_coefficient_bytes) {
    return pj_begin_source(stream, prefix, prefix_size, data, fd, ranges, count, components, scale_denom, max_scans,
                           max_coefficient_bytes, 1);
}

/* A multi-scan decompressor asks for one whole-image coefficient array per component, in
   component order (jdcoefct.c); a component that is not decoded gets a few scratch rows instead,
   which its DC scans write into and nothing reads. */
static jvirt_barray_ptr pj_request_barray(j_common_ptr info, int pool, boolean pre_zero, JDIMENSION blocks_per_row,
                                          JDIMENSION rows, JDIMENSION max_access) {
    pj_stream *stream = (pj_stream *)info->client_data;
    int component = stream->barray_requests++;
    if (component < MAX_COMPONENTS && !(stream->components & (1 << component))) {
        struct pj_scratch_array *scratch = &stream->scratch[component];
        scratch->rows = (*info->mem->alloc_barray)(info, JPOOL_IMAGE, blocks_per_row, max_access);
        scratch->max_rows = max_access;
        return (jvirt_barray_ptr)scratch;
    }
    return stream->request_virt_barray(info, pool, pre_zero, blocks_per_row, rows, max_access);
}

static JBLOCKARRAY pj_access_barray(j_common_ptr info, jvirt_barray_ptr array, JDIMENSION start_row,
                                    JDIMENSION rows, boolean writable) {
    pj_stream *stream = (pj_stream *)info->client_data;
    for (int c = 0; c < MAX_COMPONENTS; c++) {
        struct pj_scratch_array *scratch = &stream->scratch[c];
        if (array == (jvirt_barray_ptr)scratch) {
            if (rows > scratch->max_rows) ERREXIT(info, JERR_BAD_VIRTUAL_ACCESS);
            return scratch->rows;
        }
    }
    return stream->access_virt_barray(info, array, start_row, rows, writable);
}

static int pj_start(pj_stream *stream, int scale_denom, int max_scans, unsigned long long max_coefficient_bytes,
                    int want_planes) {
    stream->max_scans = max_scans;
    if (setjmp(stream->error.jump)) return PJ_ERROR;
    jpeg_read_header(&stream->info, TRUE);
    if (stream->components) {
        /* Some components only: a progressive YCbCr file whose every coefficient is complete (no
           block smoothing then, as in a whole decode), decoded to planes. */
        if (!stream->info.progressive_mode || stream->info.num_components != 3
            || stream->info.jpeg_color_space != JCS_YCbCr) {
            snprintf(stream->message, sizeof stream->message, "only progressive YCbCr files are decoded by component");
            return PJ_ERROR;
        }
        for (int c = 0; c < 3; c++) stream->info.comp_info[c].component_needed = (stream->components >> c) & 1;
        stream->info.do_block_smoothing = FALSE;
        stream->request_virt_barray = stream->info.mem->request_virt_barray;
        stream->access_virt_barray = stream->info.mem->access_virt_barray;
        stream->info.mem->request_virt_barray = pj_request_barray;
        stream->info.mem->access_virt_barray = pj_access_barray;
    }
    if (pj_coefficient_bytes(stream) > max_coefficient_bytes) return PJ_TOO_LITTLE_DATA;
    switch (stream->info.jpeg_color_space) {
    case JCS_GRAYSCALE:
        stream->info.out_color_space = JCS_GRAYSCALE;
        stream->layout = PJ_GRAY;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        stream->info.out_color_space = JCS_CMYK;
        stream->layout = PJ_CMYK;
        break;
    case JCS_YCbCr:
        if (want_planes && stream->info.num_components == 3) {
            stream->info.out_color_space = JCS_YCbCr;
            stream->info.raw_data_out = TRUE;
            stream->layout = PJ_PLANES;
            break;
        }
        /* fall through */
    default:
        stream->info.out_color_space = JCS_RGB;
        stream->layout = PJ_RGB;
        break;
    }
    stream->info.scale_num = 1;
    stream->info.scale_denom = (unsigned int)scale_denom;
    stream->info.dct_method = JDCT_ISLOW;
    jpeg_start_decompress(&stream->info);
    stream->started = 1;
    return PJ_OK;
}

int pj_output_width(const pj_stream *stream) { return (int)stream->info.output_width; }
int pj_output_height(const pj_stream *stream) { return (int)stream->info.output_height; }
int pj_output_layout(const pj_stream *stream) { return stream->layout; }
int pj_warnings(const pj_stream *stream) { return stream->warnings; }
const char *pj_message(const pj_stream *stream) { return stream->message; }

int pj_read(pj_stream *stream, unsigned char *rows, size_t stride, int max_rows) {
    JSAMPROW pointers[16];
    int total = 0;
    if (setjmp(stream->error.jump)) return PJ_ERROR;
    while (total < max_rows && stream->info.output_scanline < stream->info.output_height) {
        int want = max_rows - total;
        if (want > 16) want = 16;
        for (int i = 0; i < want; i++) pointers[i] = rows + (size_t)(total + i) * stride;
        total += (int)jpeg_read_scanlines(&stream->info, pointers, (JDIMENSION)want);
    }
    return total;
}

int pj_plane_width(const pj_stream *stream, int component) {
    return (int)stream->info.comp_info[component].downsampled_width;
}
int pj_plane_height(const pj_stream *stream, int component) {
    return (int)stream->info.comp_info[component].downsampled_height;
}
int pj_plane_stride(const pj_stream *stream, int component) {
    const jpeg_component_info *c = &stream->info.comp_info[component];
    return (int)(c->width_in_blocks * (JDIMENSION)c->DCT_scaled_size);
}
int pj_plane_rows(const pj_stream *stream, int component) {
    const jpeg_component_info *c = &stream->info.comp_info[component];
    return c->v_samp_factor * c->DCT_scaled_size;
}

int pj_read_planes(pj_stream *stream, unsigned char *const planes[3], const size_t strides[3]) {
    /* At most 4 (v_samp_factor) × 8 (DCT_scaled_size) rows per component per iMCU row. */
    JSAMPROW rows[3][32];
    JSAMPARRAY image[3] = { rows[0], rows[1], rows[2] };
    if (stream->info.output_scanline >= stream->info.output_height) return 0;
    for (int c = 0; c < 3; c++) {
        int count = pj_plane_rows(stream, c);
        if (count > 32) return PJ_ERROR;
        for (int i = 0; i < count; i++) rows[c][i] = planes[c] + (size_t)i * strides[c];
    }
    if (setjmp(stream->error.jump)) return PJ_ERROR;
    JDIMENSION lines = (JDIMENSION)(stream->info.max_v_samp_factor * stream->info.min_DCT_scaled_size);
    return (int)jpeg_read_raw_data(&stream->info, image, lines);
}

int pj_finish(pj_stream *stream) {
    if (setjmp(stream->error.jump)) return PJ_ERROR;
    if (stream->started) jpeg_finish_decompress(&stream->info);
    stream->started = 0;
    return PJ_OK;
}
