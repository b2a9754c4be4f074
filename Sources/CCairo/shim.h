#pragma once
// cairo's headers include only each other, so they need no search path beyond /usr/include.
#include <cairo/cairo.h>
#include <cairo/cairo-pdf.h>

// The part of pango's API the flyers and cards use, declared here: pango's own headers pull in
// GLib's, whose include paths only pkg-config knows (and its flags carry -pthread, which SwiftPM
// refuses with a warning). These are pango 1.x's stable C ABI (libpango1.0-dev ≥ 1.44).
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct {
    int x;
    int y;
    int width;
    int height;
} PangoRectangle;
typedef enum { PANGO_WEIGHT_NORMAL = 400, PANGO_WEIGHT_BOLD = 700 } PangoWeight;
typedef enum { PANGO_ALIGN_LEFT, PANGO_ALIGN_CENTER, PANGO_ALIGN_RIGHT } PangoAlignment;
typedef enum { PANGO_WRAP_WORD, PANGO_WRAP_CHAR, PANGO_WRAP_WORD_CHAR } PangoWrapMode;
typedef enum { PANGO_ELLIPSIZE_NONE, PANGO_ELLIPSIZE_START, PANGO_ELLIPSIZE_MIDDLE, PANGO_ELLIPSIZE_END } PangoEllipsizeMode;
#define PANGO_SCALE 1024

PangoLayout *pango_cairo_create_layout(cairo_t *cr);
void pango_cairo_show_layout(cairo_t *cr, PangoLayout *layout);
PangoFontDescription *pango_font_description_from_string(const char *str);
void pango_font_description_set_absolute_size(PangoFontDescription *desc, double size);
void pango_font_description_set_weight(PangoFontDescription *desc, PangoWeight weight);
void pango_font_description_free(PangoFontDescription *desc);
void pango_layout_set_font_description(PangoLayout *layout, const PangoFontDescription *desc);
void pango_layout_set_text(PangoLayout *layout, const char *text, int length);
void pango_layout_set_width(PangoLayout *layout, int width);
void pango_layout_set_height(PangoLayout *layout, int height);
void pango_layout_set_wrap(PangoLayout *layout, PangoWrapMode wrap);
void pango_layout_set_ellipsize(PangoLayout *layout, PangoEllipsizeMode ellipsize);
void pango_layout_set_alignment(PangoLayout *layout, PangoAlignment alignment);
void pango_layout_get_extents(PangoLayout *layout, PangoRectangle *ink_rect, PangoRectangle *logical_rect);
void g_object_unref(void *object);
