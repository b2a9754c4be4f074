// The encoder's frame: geometry, the parts and their libjpeg compressors, the rows, the tables.
#include "encoder_internal.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "codecs_names.h"
#include <jpeglib.h>
#include <jerror.h>

struct pq_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *message;
};

/// One part of the file: its own compressor (its own image: the top part `first_row ..< split`
/// iMCU rows, or the rest), its coefficient arrays, its symbol counts.
struct pq_part {
    struct jpeg_compress_struct info;
    struct pq_error error;
    int created;
    /* Between jpeg_write_coefficients and jpeg_finish_compress (or destroy). */
    int writing;
    jvirt_barray_ptr arrays[3];
    int first_row;    /* the part's first iMCU row in the whole image */
    int rows;         /* its iMCU rows */
    int encoded;      /* of them, encoded */
    int width_in_blocks[3], height_in_blocks[3];
    pq_counts counts;
    /* The DC predictions the next row starts from (0 at the start of a part, as after a restart). */
    int predictions[3];
    /* A block row's nonzero masks. */
    uint64_t *nonzero;
    char message[JMSG_LENGTH_MAX];
    unsigned char *output;
    unsigned long output_size;
    unsigned char *initial_output;
    int finished;
};

struct pq_encoder {
    pq_settings settings;
    int width, height;
    int components;
    int h[3], v[3];      /* sampling factors */
    int max_h, max_v;
    int imcu_rows;
    int mcus_per_row;
    int parts;
    struct pq_part part[2];
    pq_quantiser quantiser[2];
    pq_row_kernel kernel;
    /* Per part and component, one iMCU row of samples padded to whole blocks. */
    uint8_t *scratch[2][3];
    size_t scratch_stride[3];
    char message[JMSG_LENGTH_MAX];
};

static void pq_error_exit(j_common_ptr info) {
    struct pq_error *error = (struct pq_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void pq_silent(j_common_ptr info) { (void)info; }

static int ceil_div(int a, int b) { return (a + b - 1) / b; }

/* The Huffman tables are made from the AC symbols of one block row in this many; every symbol is
   counted once more, so each has a code whatever the rows not counted hold. */
#define SAMPLED_ROWS 4

int pq_imcu_rows(const pq_encoder *encoder) { return encoder->imcu_rows; }
int pq_split_row(const pq_encoder *encoder) { return encoder->parts == 2 ? encoder->part[1].first_row : encoder->imcu_rows; }
int pq_plane_rows_per_imcu(const pq_encoder *encoder, int component) { return encoder->v[component] * 8; }
int pq_parts(const pq_encoder *encoder) { return encoder->parts; }
int pq_restart_interval(const pq_encoder *encoder) {
    return encoder->parts == 2 ? encoder->part[0].rows * encoder->mcus_per_row : 0;
}
const char *pq_message(const pq_encoder *encoder) {
    for (int p = 0; p < 2 && !encoder->message[0]; p++)
        if (encoder->part[p].message[0]) return encoder->part[p].message;
    return encoder->message;
}

/// Sets up part `p` as an image of `rows` iMCU rows from `first_row` (`height` image rows) and
/// starts its compressor up to the coefficient arrays; 0 on failure (message set).
static int start_part(pq_encoder *e, int p, int first_row, int rows, int height) {
    struct pq_part *part = &e->part[p];
    struct jpeg_compress_struct *c = &part->info;
    part->first_row = first_row;
    part->rows = rows;
    part->error.message = part->message;
    c->err = jpeg_std_error(&part->error.base);
    part->error.base.error_exit = pq_error_exit;
    part->error.base.output_message = pq_silent;
    if (setjmp(part->error.jump)) return 0;
    jpeg_create_compress(c);
    part->created = 1;
    /* Room for a q95 file from the start (1.5 bytes a pixel; more moves it to a buffer twice as
       big, as libjpeg does); the pages beyond what is written are never touched. */
    part->output_size = (unsigned long)e->width * (unsigned long)height * 3 / 2 + 65536;
    part->output = part->initial_output = malloc(part->output_size);
    if (!part->output) part->output_size = 0;
    jpeg_mem_dest(c, &part->output, &part->output_size);
    c->image_width = (JDIMENSION)e->width;
    c->image_height = (JDIMENSION)height;
    c->input_components = e->components;
    c->in_color_space = e->components == 3 ? JCS_YCbCr : JCS_GRAYSCALE;
    jpeg_set_defaults(c);
    jpeg_set_colorspace(c, e->components == 3 ? JCS_YCbCr : JCS_GRAYSCALE);
    for (int i = 0; i < e->components; i++) {
        c->comp_info[i].h_samp_factor = e->h[i];
        c->comp_info[i].v_samp_factor = e->v[i];
    }
    for (int t = 0; t < (e->components == 3 ? 2 : 1); t++)
        for (int i = 0; i < 64; i++) c->quant_tbl_ptrs[t]->quantval[i] = e->quantiser[t].table[i];
    if (e->settings.progressive) {
        c->optimize_coding = TRUE;
        jpeg_simple_progression(c);
    } else {
        c->optimize_coding = FALSE;
    }
    for (int i = 0; i < e->components; i++) {
        int comp_width = ceil_div(e->width * e->h[i], e->max_h), comp_height = ceil_div(height * e->v[i], e->max_v);
        part->width_in_blocks[i] = ceil_div(comp_width, 8);
        part->height_in_blocks[i] = ceil_div(comp_height, 8);
        JDIMENSION columns = (JDIMENSION)(ceil_div(part->width_in_blocks[i], e->h[i]) * e->h[i]);
        JDIMENSION block_rows = (JDIMENSION)(ceil_div(part->height_in_blocks[i], e->v[i]) * e->v[i]);
        /* Not zeroed first: every block libjpeg reads from them is written (the blocks past the
           image's edges within an MCU are libjpeg's own dummies). */
        part->arrays[i] = (*c->mem->request_virt_barray)((j_common_ptr)c, JPOOL_IMAGE, FALSE, columns, block_rows,
                                                        (JDIMENSION)e->v[i]);
    }
    /* Realizes the arrays and writes the file header; the tables and the frame follow when the
       coefficients are written. */
    jpeg_write_coefficients(c, part->arrays);
    part->writing = 1;
    return 1;
}

pq_encoder *pq_create(int width, int height, const pq_settings *settings) {
    if (width < 1 || height < 1 || width > 65535 || height > 65535) return NULL;
    if (settings->components != 1 && settings->components != 3) return NULL;
    pq_encoder *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->settings = *settings;
    e->width = width;
    e->height = height;
    e->components = settings->components;
    int factor = e->components == 3 && !settings->full_chroma ? 2 : 1;
    e->h[0] = e->v[0] = factor;
    for (int i = 1; i < 3; i++) e->h[i] = e->v[i] = 1;
    e->max_h = e->max_v = factor;
    e->imcu_rows = ceil_div(height, 8 * factor);
    e->mcus_per_row = ceil_div(width, 8 * factor);
    for (int t = 0; t < 2; t++) {
        uint16_t table[64];
        pq_quality_table(settings->quality, t, table);
        pq_make_quantiser(&e->quantiser[t], table);
    }
    /* Two parts: the top one a whole number of iMCU rows, at least half of them; the restart
       interval (the top part's MCUs) within the format's 65,535. */
    int top = settings->split_row > 0 ? settings->split_row : (e->imcu_rows + 1) / 2;
    int two = settings->two_parts && !settings->progressive && top >= 1 && top < e->imcu_rows
        && top * e->mcus_per_row <= 65535;
    e->parts = two ? 2 : 1;
    int ok;
    if (two) {
        int top_height = top * 8 * factor;
        ok = start_part(e, 0, 0, top, top_height) && start_part(e, 1, top, e->imcu_rows - top, height - top_height);
    } else {
        ok = start_part(e, 0, 0, e->imcu_rows, height);
    }
    e->kernel = pq_choose_row_kernel(settings->baseline_kernels);
    pq_prepare_symbols();
    for (int p = 0; ok && p < e->parts; p++) {
        e->part[p].nonzero = malloc(sizeof(uint64_t) * (size_t)e->part[0].width_in_blocks[0]);
        if (!e->part[p].nonzero) ok = 0;
    }
    for (int i = 0; ok && i < e->components; i++) {
        e->scratch_stride[i] = (size_t)e->part[0].width_in_blocks[i] * 8;
        for (int p = 0; p < e->parts; p++) {
            e->scratch[p][i] = malloc(e->scratch_stride[i] * (size_t)(e->v[i] * 8));
            if (!e->scratch[p][i]) ok = 0;
        }
    }
    if (!ok) {
        pq_destroy(e);
        return NULL;
    }
    return e;
}

/// Copies the plane rows one iMCU row covers into `scratch`, from column `from` on (the columns
/// before it are read in place), repeating the last row and sample past the plane's edges (as
/// libjpeg pads an image to whole blocks). `from` is below `width`.
static void fill_rows(uint8_t *scratch, size_t scratch_stride, int rows, const uint8_t *plane, size_t stride, int width,
                      int height, int first, int from) {
    for (int i = 0; i < rows; i++) {
        int source = first + i < height ? first + i : height - 1;
        uint8_t *row = scratch + (size_t)i * scratch_stride;
        memcpy(row + from, plane + (size_t)source * stride + from, (size_t)(width - from));
        memset(row + width, row[width - 1], scratch_stride - (size_t)width);
    }
}

/// Counts the DC symbols of one iMCU row of part `part`, block by block in MCU order as libjpeg
/// writes them (dummy blocks past the edges repeat the previous DC and have no AC: one EOB each),
/// from `predictions` (the part's running DC predictions).
static void count_dc(pq_encoder *e, struct pq_part *part, JBLOCKARRAY rows[3], int row, int predictions[3]) {
    for (int mx = 0; mx < e->mcus_per_row; mx++) {
        for (int c = 0; c < e->components; c++) {
            int class = c ? 1 : 0;
            for (int yy = 0; yy < e->v[c]; yy++) {
                int by = row * e->v[c] + yy;
                for (int xx = 0; xx < e->h[c]; xx++) {
                    int bx = mx * e->h[c] + xx;
                    if (bx < part->width_in_blocks[c] && by < part->height_in_blocks[c]) {
                        int dc = rows[c][yy][bx][0];
                        part->counts.dc[class][pq_size_category(dc - predictions[c])]++;
                        predictions[c] = dc;
                    } else {
                        part->counts.dc[class][0]++;
                        part->counts.ac[class][0x00]++;
                    }
                }
            }
        }
    }
}

int pq_encode_rows(pq_encoder *e, const uint8_t *const planes[3], const size_t strides[3], const int widths[3],
                   const int heights[3], int first, int last) {
    int p = e->parts == 2 && first >= e->part[1].first_row ? 1 : 0;
    struct pq_part *part = &e->part[p];
    if (first != part->first_row + part->encoded || last > part->first_row + part->rows || last < first) {
        snprintf(e->message, sizeof e->message, "rows %d to %d are not the next of their part", first, last);
        return PQ_ERROR;
    }
    if (setjmp(part->error.jump)) return PQ_ERROR;
    for (int row = first; row < last; row++) {
        int local = row - part->first_row;
        JBLOCKARRAY rows[3];
        for (int c = 0; c < e->components; c++) {
            int per = e->v[c] * 8;
            /* Blocks wholly inside the plane are read in place; the rest of the row (the columns
               from the first block that reaches past the plane, or all of it when its last rows
               do) is copied with its edges repeated. */
            const int inside_rows = (row + 1) * per <= heights[c];
            const int inside_columns = widths[c] / 8;
            const int blocks = part->width_in_blocks[c];
            const int direct = inside_rows ? (inside_columns < blocks ? inside_columns : blocks) : 0;
            if (direct < blocks)
                fill_rows(e->scratch[p][c], e->scratch_stride[c], per, planes[c], strides[c], widths[c], heights[c], row * per,
                          direct * 8);
            rows[c] = (*part->info.mem->access_virt_barray)((j_common_ptr)&part->info, part->arrays[c],
                                                           (JDIMENSION)(local * e->v[c]), (JDIMENSION)e->v[c], TRUE);
            int class = c ? 1 : 0;
            for (int yy = 0; yy < e->v[c]; yy++) {
                if (local * e->v[c] + yy >= part->height_in_blocks[c]) continue;
                const uint8_t *copied = e->scratch[p][c] + (size_t)yy * 8 * e->scratch_stride[c];
                const uint8_t *in_place = planes[c] + (size_t)(row * per + yy * 8) * strides[c];
                int16_t (*levels)[64] = (int16_t (*)[64])rows[c][yy];
                uint64_t *nonzero = part->nonzero;
                e->kernel(in_place, strides[c], direct, &e->quantiser[class], levels, nonzero);
                e->kernel(copied + direct * 8, e->scratch_stride[c], blocks - direct, &e->quantiser[class], levels + direct,
                          nonzero + direct);
                /* The AC symbols of one block row in four (counted from the image's top, so both parts
                   and a file in one part count the same rows): enough to shape the tables. */
                if ((row * e->v[c] + yy) % SAMPLED_ROWS == 0)
                    for (int bx = 0; bx < blocks; bx++) pq_count_symbols(levels[bx], nonzero[bx], part->counts.ac[class]);
            }
        }
        count_dc(e, part, rows, local, part->predictions);
        part->encoded++;
    }
    return PQ_OK;
}

/// Puts counted tables into `table` (allocated by jpeg_set_defaults).
static void set_table(JHUFF_TBL *table, const uint32_t counts[256]) {
    uint8_t bits[17], values[256];
    int n;
    pq_huffman_table(counts, bits, values, &n);
    memcpy(table->bits, bits, 17);
    memset(table->huffval, 0, sizeof table->huffval);
    memcpy(table->huffval, values, (size_t)n);
    table->sent_table = FALSE;
}

int pq_finish_tables(pq_encoder *e) {
    for (int p = 0; p < e->parts; p++)
        if (e->part[p].encoded != e->part[p].rows) {
            snprintf(e->message, sizeof e->message, "only %d of %d rows of blocks were encoded", e->part[p].encoded,
                     e->part[p].rows);
            return PQ_ERROR;
        }
    if (e->settings.progressive) return PQ_OK;
    pq_counts all;
    memset(&all, 0, sizeof all);
    for (int t = 0; t < 2; t++) {
        for (int size = 0; size <= 11; size++) all.dc[t][size] = 1;
        all.ac[t][0x00] = all.ac[t][0xF0] = 1;
        for (int run = 0; run < 16; run++)
            for (int size = 1; size <= 10; size++) all.ac[t][(run << 4) | size] = 1;
    }
    for (int p = 0; p < e->parts; p++)
        for (int t = 0; t < 2; t++)
            for (int s = 0; s < 256; s++) {
                all.dc[t][s] += e->part[p].counts.dc[t][s];
                all.ac[t][s] += e->part[p].counts.ac[t][s];
            }
    for (int p = 0; p < e->parts; p++) {
        struct jpeg_compress_struct *c = &e->part[p].info;
        for (int t = 0; t < (e->components == 3 ? 2 : 1); t++) {
            set_table(c->dc_huff_tbl_ptrs[t], all.dc[t]);
            set_table(c->ac_huff_tbl_ptrs[t], all.ac[t]);
        }
    }
    return PQ_OK;
}

int pq_write_part(pq_encoder *e, int p, const uint8_t **output, size_t *size) {
    struct pq_part *part = &e->part[p];
    if (!part->finished) {
        if (setjmp(part->error.jump)) return PQ_ERROR;
        jpeg_finish_compress(&part->info);
        part->writing = 0;
        part->finished = 1;
    }
    *output = part->output;
    *size = part->output_size;
    return PQ_OK;
}

void pq_destroy(pq_encoder *e) {
    if (!e) return;
    for (int p = 0; p < 2; p++) {
        struct pq_part *part = &e->part[p];
        /* libjpeg's memory destination moves to a bigger buffer as it grows but tells `output`
           only in term_destination: before then `output` may name a buffer it has freed. */
        if (part->writing && !setjmp(part->error.jump)) {
            part->writing = 0;
            (*part->info.dest->term_destination)(&part->info);
        }
        if (part->created) jpeg_destroy_compress(&part->info);
        if (part->output != part->initial_output) free(part->initial_output);
        free(part->output);
        for (int i = 0; i < 3; i++) free(e->scratch[p][i]);
        free(part->nonzero);
    }
    free(e);
}
