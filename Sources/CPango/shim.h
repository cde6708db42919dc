// Pango (layout, with HarfBuzz shaping and FriBidi), fontconfig and FreeType,
// plus inline helpers for what Swift cannot spell: GObject casts and macros.
#include <pango/pangoft2.h>
#include <pango/pangofc-font.h>
#include <pango/pangofc-fontmap.h>
#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_OUTLINE_H
#include FT_BITMAP_H
#include FT_SYNTHESIS_H

/// The fontconfig pattern of a font Pango loaded (NULL for a font that is not fontconfig's).
static inline FcPattern *strata_font_pattern(PangoFont *font) {
    return PANGO_IS_FC_FONT(font) ? pango_fc_font_get_pattern(PANGO_FC_FONT(font)) : NULL;
}

static inline void strata_object_unref(void *object) { g_object_unref(object); }

static inline const char *strata_fc_string(FcPattern *p, const char *object) {
    FcChar8 *s = NULL;
    return FcPatternGetString(p, object, 0, &s) == FcResultMatch ? (const char *)s : NULL;
}

static inline int strata_fc_int(FcPattern *p, const char *object, int fallback) {
    int v = fallback;
    return FcPatternGetInteger(p, object, 0, &v) == FcResultMatch ? v : fallback;
}

static inline double strata_fc_double(FcPattern *p, const char *object, double fallback) {
    double v = fallback;
    return FcPatternGetDouble(p, object, 0, &v) == FcResultMatch ? v : fallback;
}

static inline int strata_fc_bool(FcPattern *p, const char *object) {
    FcBool v = FcFalse;
    return FcPatternGetBool(p, object, 0, &v) == FcResultMatch && v;
}

/// The matrix fontconfig asks for (synthetic italic), identity when none.
static inline FcMatrix strata_fc_matrix(FcPattern *p) {
    FcMatrix *m = NULL;
    FcMatrix identity = { 1, 0, 0, 1 };
    return FcPatternGetMatrix(p, FC_MATRIX, 0, &m) == FcResultMatch && m ? *m : identity;
}

static inline int strata_ft_has_color(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }
static inline int strata_ft_is_scalable(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }

// FreeType's load flags are macros of expressions: spelled out for Swift.
static const FT_Int32 strata_load_light = FT_LOAD_TARGET_LIGHT;
static const FT_Int32 strata_load_no_bitmap = FT_LOAD_NO_BITMAP;
static const FT_Int32 strata_load_color = FT_LOAD_COLOR;
static const guint32 strata_glyph_unknown_flag = PANGO_GLYPH_UNKNOWN_FLAG;
static const guint32 strata_glyph_empty = PANGO_GLYPH_EMPTY;
static const int strata_pango_scale = PANGO_SCALE;
