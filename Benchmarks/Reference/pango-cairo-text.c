/* The reference for the text benchmark: Pango laying out a paragraph and drawing
   it with cairo into an image surface, as a GTK application would.
   Usage: pango-cairo-text FILE WIDTH SIZE REPETITIONS
   Prints "layout+draw <median µs>" and "redraw <median µs>". */
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "timing.h"

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s FILE WIDTH SIZE REPETITIONS\n", argv[0]); return 2; }
    gchar *text = NULL;
    if (!g_file_get_contents(argv[1], &text, NULL, NULL)) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    int width = atoi(argv[2]), reps = atoi(argv[4]);
    double size = atof(argv[3]);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, 4000);
    cairo_t *cr = cairo_create(surface);
    PangoFontDescription *font = pango_font_description_from_string("sans-serif");
    pango_font_description_set_absolute_size(font, size * PANGO_SCALE);
    double *first = calloc(reps, sizeof *first), *again = calloc(reps, sizeof *again);
    for (int i = 0; i < reps; i++) {
        double t0 = now();
        PangoLayout *layout = pango_cairo_create_layout(cr);
        pango_layout_set_font_description(layout, font);
        pango_layout_set_width(layout, width * PANGO_SCALE);
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
        pango_layout_set_text(layout, text, -1);
        cairo_move_to(cr, 0, 0);
        cairo_set_source_rgb(cr, 0, 0, 0);
        pango_cairo_show_layout(cr, layout);
        cairo_surface_flush(surface);
        double t1 = now();
        cairo_move_to(cr, 0, 0);
        pango_cairo_show_layout(cr, layout);
        cairo_surface_flush(surface);
        double t2 = now();
        first[i] = (t1 - t0) * 1e6;
        again[i] = (t2 - t1) * 1e6;
        g_object_unref(layout);
    }
    printf("layout+draw %.1f\nredraw %.1f\n", median(first, reps), median(again, reps));
    return 0;
}
