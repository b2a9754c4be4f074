// JPEG encoding from Y, Cb and Cr planes an iMCU row at a time (libjpeg's raw data input), so a
// photo can be encoded while its lower rows are still being decoded and resized. The settings
// are TurboJPEG's (tjCompressFromYUVPlanes): the same quality tables, accurate DCT, JFIF header,
// edge replication at the right and bottom, so the bytes are the same.
#include "jpeg_stream.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codecs_names.h"
#include <jpeglib.h>
#include <jerror.h>

struct pj_encoder_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

struct pj_encoder {
    struct jpeg_compress_struct info;
    struct pj_encoder_error error;
    unsigned char *output;
    unsigned long output_size;
    /* The buffer given to libjpeg at the start: it does not free it when it moves to a bigger one. */
    unsigned char *initial_output;
    int planes_height[3];
    int planes_width[3];
    /* One iMCU row per component, padded to whole blocks. */
    JSAMPLE *rows[3];
    size_t padded_width[3];
    int rows_per_imcu[3];
    int written_imcu_rows;
    int imcu_rows;
    int started;
    /* Between jpeg_start_compress and jpeg_finish_compress. */
    int compressing;
    char message[JMSG_LENGTH_MAX];
};

static void pe_error_exit(j_common_ptr info) {
    pj_encoder *encoder = (pj_encoder *)info->client_data;
    (*info->err->format_message)(info, encoder->message);
    longjmp(encoder->error.jump, 1);
}

static void pe_silent(j_common_ptr info) { (void)info; }

pj_encoder *pj_encoder_create(int width, int height, int full_chroma, int quality, int progressive, int restart_rows) {
    pj_encoder *encoder = calloc(1, sizeof *encoder);
    if (!encoder) return NULL;
    encoder->info.err = jpeg_std_error(&encoder->error.base);
    encoder->error.base.error_exit = pe_error_exit;
    encoder->error.base.output_message = pe_silent;
    encoder->info.client_data = encoder;
    if (setjmp(encoder->error.jump)) {
        pj_encoder_destroy(encoder);
        return NULL;
    }
    jpeg_create_compress(&encoder->info);
    encoder->started = 1;
    /* Room for a q95 file from the start (1.5 bytes a pixel; more moves it to a buffer twice as
       big, as libjpeg does): growing from 4 KiB by doubling, each move copied what was written
       into fresh pages, about 800 KB written for a 300 KB half of a 2048 px JPEG. The pages
       beyond what is written are never touched, so never faulted in. */
    encoder->output_size = (unsigned long)width * (unsigned long)height * 3 / 2 + 65536;
    encoder->output = encoder->initial_output = malloc(encoder->output_size);
    if (!encoder->output) encoder->output_size = 0;
    jpeg_mem_dest(&encoder->info, &encoder->output, &encoder->output_size);
    struct jpeg_compress_struct *c = &encoder->info;
    c->image_width = (JDIMENSION)width;
    c->image_height = (JDIMENSION)height;
    c->in_color_space = JCS_YCbCr;
    c->input_components = 3;
    jpeg_set_defaults(c);
    jpeg_set_quality(c, quality, TRUE);
    c->dct_method = JDCT_ISLOW;
    jpeg_set_colorspace(c, JCS_YCbCr);
    if (progressive) jpeg_simple_progression(c);
    c->restart_in_rows = restart_rows;
    int factor = full_chroma ? 1 : 2;
    c->comp_info[0].h_samp_factor = factor;
    c->comp_info[0].v_samp_factor = factor;
    for (int i = 1; i < 3; i++) c->comp_info[i].h_samp_factor = c->comp_info[i].v_samp_factor = 1;
    c->raw_data_in = TRUE;
    jpeg_start_compress(c, TRUE);
    encoder->compressing = 1;
    for (int i = 0; i < 3; i++) {
        jpeg_component_info *component = &c->comp_info[i];
        int h = component->h_samp_factor, v = component->v_samp_factor;
        encoder->planes_width[i] = (width * h + factor - 1) / factor;
        encoder->planes_height[i] = (height * v + factor - 1) / factor;
        encoder->padded_width[i] = (size_t)component->width_in_blocks * DCTSIZE;
        encoder->rows_per_imcu[i] = v * DCTSIZE;
        encoder->rows[i] = malloc(encoder->padded_width[i] * (size_t)encoder->rows_per_imcu[i]);
        if (!encoder->rows[i]) {
            pj_encoder_destroy(encoder);
            return NULL;
        }
    }
    encoder->imcu_rows = (height + factor * DCTSIZE - 1) / (factor * DCTSIZE);
    return encoder;
}

int pj_encoder_imcu_rows(const pj_encoder *encoder) { return encoder->imcu_rows; }
int pj_encoder_written_imcu_rows(const pj_encoder *encoder) { return encoder->written_imcu_rows; }
int pj_encoder_plane_rows_per_imcu(const pj_encoder *encoder, int component) { return encoder->rows_per_imcu[component]; }

int pj_encoder_write(pj_encoder *encoder, const unsigned char *const planes[3], const size_t strides[3], int imcu_rows) {
    JSAMPROW pointers[3][4 * DCTSIZE];
    JSAMPARRAY image[3] = { pointers[0], pointers[1], pointers[2] };
    if (setjmp(encoder->error.jump)) return PJ_ERROR;
    while (encoder->written_imcu_rows < imcu_rows && encoder->written_imcu_rows < encoder->imcu_rows) {
        for (int c = 0; c < 3; c++) {
            int count = encoder->rows_per_imcu[c];
            int first = encoder->written_imcu_rows * count;
            size_t width = (size_t)encoder->planes_width[c], padded = encoder->padded_width[c];
            for (int i = 0; i < count; i++) {
                /* Rows past the bottom repeat the last row; samples past the right edge, the last sample. */
                int source_row = first + i < encoder->planes_height[c] ? first + i : encoder->planes_height[c] - 1;
                JSAMPLE *row = encoder->rows[c] + (size_t)i * padded;
                memcpy(row, planes[c] + (size_t)source_row * strides[c], width);
                memset(row + width, row[width - 1], padded - width);
                pointers[c][i] = row;
            }
        }
        jpeg_write_raw_data(&encoder->info, image, (JDIMENSION)encoder->rows_per_imcu[0]);
        encoder->written_imcu_rows++;
    }
    return PJ_OK;
}

int pj_encoder_finish(pj_encoder *encoder, const unsigned char **output, unsigned long *size) {
    if (setjmp(encoder->error.jump)) return PJ_ERROR;
    if (encoder->written_imcu_rows < encoder->imcu_rows) {
        snprintf(encoder->message, sizeof encoder->message, "only %d of %d rows of blocks were written",
                 encoder->written_imcu_rows, encoder->imcu_rows);
        return PJ_ERROR;
    }
    jpeg_finish_compress(&encoder->info);
    encoder->compressing = 0;
    *output = encoder->output;
    *size = encoder->output_size;
    return PJ_OK;
}

const char *pj_encoder_message(const pj_encoder *encoder) { return encoder->message; }

void pj_encoder_destroy(pj_encoder *encoder) {
    if (!encoder) return;
    /* libjpeg's memory destination moves to a bigger buffer as it grows but tells `output` only in
       term_destination: before then `output` may name a buffer it has already freed (TurboJPEG's
       tjCompress2 does the same on its error path). */
    if (encoder->compressing && !setjmp(encoder->error.jump)) {
        encoder->compressing = 0;
        (*encoder->info.dest->term_destination)(&encoder->info);
    }
    if (encoder->started) jpeg_destroy_compress(&encoder->info);
    for (int i = 0; i < 3; i++) free(encoder->rows[i]);
    if (encoder->output != encoder->initial_output) free(encoder->initial_output);
    free(encoder->output);
    free(encoder);
}
