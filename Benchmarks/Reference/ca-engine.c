/* A small animation engine with Core Animation's data model, written as a
 * careful C programmer would: the reference that scenes S3 and S4 of
 * Docs/Benchmarks.md compare LayerKit with, in the same run. Built twice from
 * one body (ca-engine-layers.h): the full engine, whose layers hold the same
 * state as LayerKit's LayerState (the same fields, sizes and defaults, ~800
 * bytes), and a lean one whose layers hold only the ~300 bytes an animation
 * touches (geometry, transform, opacity, background, radii, layer timing).
 *
 * Layers are heap objects holding their model state, a superlayer link for
 * layer time and a list of animation records. An animation record has
 * CAMediaTiming's fields (begin time, duration, speed, time offset, repeat
 * count, autoreverses, fill mode), a cubic-Bezier timing function, the
 * animated property and its two ends.
 *
 *   S3: 10,000 layers each with a 1 s position and a 1 s opacity animation
 *       repeating forever; per frame, every presentation state (model copied,
 *       animations applied) and a checksum of position.x + opacity.
 *   S4: 100,000 layers in a presented tree; position set on each in one
 *       transaction: the action search (delegate, actions, style, class
 *       default — all empty, as in the benchmark), a new implicit animation
 *       from the old presentation value to the new model value, registered with
 *       the transaction; and the same with actions disabled.
 *
 * Usage: ca-engine FRAMES ROUNDS — prints "s3-all <us>", "s3-few <us>",
 * "s4-on <ns>", "s4-off <ns>" for the full engine and "s3-lean-all <us>",
 * "s4-lean-on <ns>", "s4-lean-off <ns>" for the lean one (medians).
 */
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include "timing.h"

typedef struct { double x, y; } point;
typedef struct { double w, h; } size;
typedef struct { point origin; size size; } rect;
typedef struct { double r, g, b, a; } color;
typedef struct { double m[16]; } transform3d;

enum property { PROP_POSITION, PROP_OPACITY };
enum fill { FILL_REMOVED, FILL_FORWARDS, FILL_BACKWARDS, FILL_BOTH };

typedef struct animation {
    int property;
    double from[2], to[2];
    double begin, duration, speed, time_offset, repeat_count;
    int autoreverses, fill, has_timing;
    double c1x, c1y, c2x, c2y;           /* cubic Bezier control points */
    struct animation *next;
} animation;

static void identity(transform3d *t) {
    memset(t, 0, sizeof *t);
    t->m[0] = t->m[5] = t->m[10] = t->m[15] = 1;
}

/* Cubic Bezier from (0,0) to (1,1): y at x, by Newton's method then bisection. */
static double bezier(const animation *a, double x) {
    double ax = 3 * a->c1x - 3 * a->c2x + 1, bx = 3 * a->c2x - 6 * a->c1x, cx = 3 * a->c1x;
    double ay = 3 * a->c1y - 3 * a->c2y + 1, by = 3 * a->c2y - 6 * a->c1y, cy = 3 * a->c1y;
    double t = x;
    for (int i = 0; i < 8; i++) {
        double fx = ((ax * t + bx) * t + cx) * t - x;
        if (fabs(fx) < 1e-7) return ((ay * t + by) * t + cy) * t;
        double d = (3 * ax * t + 2 * bx) * t + cx;
        if (fabs(d) < 1e-6) break;
        t -= fx / d;
    }
    double lo = 0, hi = 1;
    t = x;
    while (lo < hi) {
        double fx = ((ax * t + bx) * t + cx) * t;
        if (fabs(fx - x) < 1e-7) break;
        if (x > fx) lo = t; else hi = t;
        t = (lo + hi) / 2;
        if (hi - lo < 1e-9) break;
    }
    return ((ay * t + by) * t + cy) * t;
}

/* CAMediaTiming: local time to a fraction of one cycle; 0 when not in effect. */
static int timing(const animation *a, double t, double *fraction) {
    double d = a->duration > 0 ? a->duration : 0.25;
    double cycle = d * (a->autoreverses ? 2 : 1);
    double active = a->repeat_count > 0 ? a->repeat_count * cycle : cycle;
    double at = (t - a->begin) * a->speed;
    int end = 0;
    if (at < 0) {
        if (a->fill != FILL_BACKWARDS && a->fill != FILL_BOTH) return 0;
        at = 0;
    } else if (at >= active) {
        if (a->fill != FILL_FORWARDS && a->fill != FILL_BOTH) return 0;
        at = active;
        end = 1;
    }
    at += a->time_offset;
    double iteration = floor(at / cycle), within = at - iteration * cycle;
    if (end && within <= 0 && iteration > 0) within = cycle;
    if (a->autoreverses && within > d) within = cycle - within;
    double f = within / d;
    *fraction = f < 0 ? 0 : f > 1 ? 1 : f;
    return 1;
}

static animation *new_animation(int property, double begin) {
    animation *a = calloc(1, sizeof *a);
    a->property = property;
    a->begin = begin;
    a->duration = 1;
    a->speed = 1;
    return a;
}

/* The transaction's list of animations added in it. */
typedef struct { animation **items; int count, capacity; } transaction;

static void transaction_add(transaction *t, animation *a) {
    if (t->count == t->capacity) {
        t->capacity = t->capacity ? 2 * t->capacity : 1024;
        t->items = realloc(t->items, t->capacity * sizeof *t->items);
    }
    t->items[t->count++] = a;
}

/* LayerKit's LayerState, field for field (references as pointers). */
typedef struct {
    rect bounds;
    point position, anchor_point;
    double anchor_point_z, z_position;
    transform3d transform, sublayer_transform;
    double opacity;
    int hidden;
    int has_background; color background;
    double corner_radius, border_width;
    int has_border_color; color border_color;
    int masks_to_bounds;
    void *mask;
    int double_sided;
    void *contents;
    rect contents_rect, contents_center;
    int contents_gravity;
    double contents_scale;
    int has_shadow_color; color shadow_color;
    double shadow_opacity;
    size shadow_offset;
    double shadow_radius;
    void *shadow_path;
    double begin_time, speed, time_offset;
    const char *name;
    void *custom;
} layer_state;

static void full_defaults(layer_state *s) {
    s->anchor_point = (point){0.5, 0.5};
    identity(&s->transform);
    identity(&s->sublayer_transform);
    s->opacity = 1;
    s->has_border_color = 1; s->border_color = (color){0, 0, 0, 1};
    s->double_sided = 1;
    s->contents_rect = s->contents_center = (rect){{0, 0}, {1, 1}};
    s->contents_scale = 1;
    s->has_shadow_color = 1; s->shadow_color = (color){0, 0, 0, 1};
    s->shadow_offset = (size){0, -3};
    s->shadow_radius = 3;
    s->speed = 1;
}

/* The full engine. */
#define ENGINE(name) full_##name
#define STATE layer_state
#define STATE_DEFAULTS full_defaults
#include "ca-engine-layers.h"
#undef ENGINE
#undef STATE
#undef STATE_DEFAULTS

/* The lean engine's state: what an animation touches, ~300 bytes. */
typedef struct {
    rect bounds;
    point position, anchor_point;
    double z_position;
    transform3d transform;
    double opacity;
    int has_background; color background;
    double corner_radius, border_width, shadow_opacity;
    double begin_time, speed, time_offset;
} lean_state;

static void lean_defaults(lean_state *s) {
    s->anchor_point = (point){0.5, 0.5};
    identity(&s->transform);
    s->opacity = 1;
    s->speed = 1;
}

#define ENGINE(name) lean_##name
#define STATE lean_state
#define STATE_DEFAULTS lean_defaults
#include "ca-engine-layers.h"

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 61, rounds = argc > 2 ? atoi(argv[2]) : 7;
    double on, off;
    /* S4's rounds free 100,000 animation records each. glibc would hand the
     * top of the heap back to the kernel after that when the freed records
     * lie there, and the next round's first touches of that memory would be
     * page faults: a cost set by the heap's layout, not by the engine. The
     * Swift side of S4 runs the same way (sceneImplicit100k). */
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    printf("s3-all %.3f\n", full_s3(10000, 10000, frames));
    printf("s3-few %.3f\n", full_s3(10000, 10, frames));
    full_s4(100000, rounds, &on, &off);
    printf("s4-on %.2f\n", on);
    printf("s4-off %.2f\n", off);
    printf("s3-lean-all %.3f\n", lean_s3(10000, 10000, frames));
    lean_s4(100000, rounds, &on, &off);
    printf("s4-lean-on %.2f\n", on);
    printf("s4-lean-off %.2f\n", off);
    return 0;
}
