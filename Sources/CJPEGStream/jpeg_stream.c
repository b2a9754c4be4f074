// Scanline-at-a-time JPEG decoding over libjpeg-turbo's libjpeg API.
// Every libjpeg call runs under a setjmp in the same function; errors come back as PJ_ERROR.
#include "jpeg_stream.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
};

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
    free(stream);
}

unsigned long long pj_coefficient_bytes(const pj_stream *stream) {
    unsigned long long total = 0;
    for (int i = 0; i < stream->info.num_components; i++) {
        const jpeg_component_info *component = &stream->info.comp_info[i];
        total += (unsigned long long)component->width_in_blocks * component->height_in_blocks * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}

int pj_image_width(const pj_stream *stream) { return (int)stream->info.image_width; }
int pj_image_height(const pj_stream *stream) { return (int)stream->info.image_height; }

int pj_begin(pj_stream *stream, const unsigned char *data, unsigned long size, int scale_denom, int max_scans,
             unsigned long long max_coefficient_bytes, int want_planes) {
    stream->max_scans = max_scans;
    if (setjmp(stream->error.jump)) return PJ_ERROR;
    jpeg_mem_src(&stream->info, data, size);
    jpeg_read_header(&stream->info, TRUE);
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
