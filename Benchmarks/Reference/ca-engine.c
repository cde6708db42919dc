/* A small animation engine with Core Animation's data model, written as a
 * careful C programmer would: the reference that scenes S3 and S4 of
 * Docs/Benchmarks.md compare LayerKit with, in the same run.
 *
 * Layers are heap objects holding their model state (the same fields, sizes and
 * defaults as LayerKit's LayerState), a superlayer link for layer time and a
 * list of animation records. An animation record has CAMediaTiming's fields
 * (begin time, duration, speed, time offset, repeat count, autoreverses, fill
 * mode), a cubic-Bezier timing function, the animated property and its two ends.
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
 * "s4-on <ns>", "s4-off <ns>" (medians).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>
#include "timing.h"

typedef struct { double x, y; } point;
typedef struct { double w, h; } size;
typedef struct { point origin; size size; } rect;
typedef struct { double r, g, b, a; } color;
typedef struct { double m[16]; } transform3d;

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

typedef struct layer {
    layer_state model;
    struct layer *superlayer;
    animation *animations;
    void *delegate;                       /* searched first: none here */
    int actions_count, style_count;       /* empty dictionaries */
    int presented;
    struct layer *next_animated;
} layer;

static void identity(transform3d *t) {
    memset(t, 0, sizeof *t);
    t->m[0] = t->m[5] = t->m[10] = t->m[15] = 1;
}

static layer *new_layer(void) {
    layer *l = calloc(1, sizeof *l);
    layer_state *s = &l->model;
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
    return l;
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

static double local_time(const layer *l, double t) {
    double parent = l->superlayer ? local_time(l->superlayer, t) : t;
    return (parent - l->model.begin_time) * l->model.speed + l->model.time_offset;
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

static void apply(const layer *l, layer_state *out, double t) {
    *out = l->model;
    double local = local_time(l, t);
    for (const animation *a = l->animations; a; a = a->next) {
        double f;
        if (!timing(a, local, &f)) continue;
        double p = a->has_timing ? bezier(a, f) : f;
        switch (a->property) {
        case PROP_POSITION:
            out->position.x = a->from[0] * (1 - p) + a->to[0] * p;
            out->position.y = a->from[1] * (1 - p) + a->to[1] * p;
            break;
        case PROP_OPACITY:
            out->opacity = a->from[0] * (1 - p) + a->to[0] * p;
            break;
        }
    }
}

static animation *new_animation(int property, double begin) {
    animation *a = calloc(1, sizeof *a);
    a->property = property;
    a->begin = begin;
    a->duration = 1;
    a->speed = 1;
    return a;
}

/* S3: µs per frame to evaluate every animated layer. */
static double s3(int count, int animating, int frames) {
    layer *root = new_layer();
    layer **layers = malloc(count * sizeof *layers);
    layer *animated = NULL;
    double clock = 2000;
    for (int i = 0; i < count; i++) {
        layer *l = layers[i] = new_layer();
        l->superlayer = root;
        l->model.bounds = (rect){{0, 0}, {20, 20}};
        l->model.position = (point){(i % 100) * 20.0, (i / 100) * 20.0};
    }
    for (int i = 0; i < animating; i++) {
        layer *l = layers[i];
        animation *move = new_animation(PROP_POSITION, clock), *fade = new_animation(PROP_OPACITY, clock);
        move->from[0] = l->model.position.x; move->from[1] = l->model.position.y;
        move->to[0] = l->model.position.x + 100; move->to[1] = l->model.position.y;
        move->repeat_count = fade->repeat_count = INFINITY;
        fade->from[0] = 1; fade->to[0] = 0;
        move->next = fade;
        l->animations = move;
        l->next_animated = animated;
        animated = l;
    }
    double *times = malloc(frames * sizeof *times), checksum = 0;
    for (int f = 0; f < frames; f++) {
        clock += 1.0 / 60;
        double t0 = now();
        for (layer *l = animated; l; l = l->next_animated) {
            layer_state shown;
            apply(l, &shown, clock);
            checksum += shown.position.x + shown.opacity;
        }
        times[f] = now() - t0;
    }
    if (isnan(checksum)) printf("checksum nan\n");
    double m = median(times, frames) * 1e6;
    for (int i = 0; i < count; i++) {
        for (animation *a = layers[i]->animations, *n; a; a = n) { n = a->next; free(a); }
        free(layers[i]);
    }
    free(layers); free(times); free(root);
    return m;
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

/* The action search of rule A3 for an animatable key: delegate, actions, style,
 * class default (all empty here), then the implicit animation. */
static animation *action_for(layer *l, int property, double at) {
    if (l->delegate) return NULL;
    if (l->actions_count) return NULL;
    if (l->style_count) return NULL;
    if (!l->presented) return NULL;
    return new_animation(property, at);
}

static void set_position(layer *l, point p, transaction *t, int disabled, double at) {
    if (l->model.position.x == p.x && l->model.position.y == p.y) return;
    if (!disabled) {
        animation *a = action_for(l, PROP_POSITION, at);
        if (a) {
            layer_state shown;
            apply(l, &shown, at);             /* the presentation value it starts from */
            a->from[0] = shown.position.x; a->from[1] = shown.position.y;
            a->to[0] = p.x; a->to[1] = p.y;
            a->duration = 0.25;
            a->has_timing = 1;                /* the default timing function */
            a->c1x = 0.25; a->c1y = 0.1; a->c2x = 0.25; a->c2y = 1;
            a->next = l->animations;
            l->animations = a;
            transaction_add(t, a);
        }
    }
    l->model.position = p;
}

/* S4: ns per change, with actions and disabled. */
static void s4(int count, int rounds, double *on, double *off) {
    layer *root = new_layer();
    layer **layers = malloc(count * sizeof *layers);
    for (int i = 0; i < count; i++) {
        layer *l = layers[i] = new_layer();
        l->superlayer = root;
        l->presented = 1;
        l->model.bounds = (rect){{0, 0}, {10, 10}};
        l->model.position = (point){i % 1000, i / 1000};
    }
    double *a = malloc(rounds * sizeof *a), *b = malloc(rounds * sizeof *b);
    transaction t = {0};
    double clock = 1000;
    for (int r = 0; r < rounds; r++) {
        for (int pass = 0; pass < 2; pass++) {
            double offset = 2 * r + 1 + pass;
            double t0 = now();
            for (int i = 0; i < count; i++)
                set_position(layers[i], (point){i % 1000 + offset, i / 1000}, &t, pass, clock);
            double t1 = now();
            (pass ? b : a)[r] = (t1 - t0) / count * 1e9;
            /* The animations finish (not timed). */
            for (int i = 0; i < count; i++) {
                for (animation *x = layers[i]->animations, *n; x; x = n) { n = x->next; free(x); }
                layers[i]->animations = NULL;
            }
            t.count = 0;
            clock += 1;
        }
    }
    *on = median(a, rounds);
    *off = median(b, rounds);
    for (int i = 0; i < count; i++) free(layers[i]);
    free(layers); free(a); free(b); free(t.items); free(root);
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 61, rounds = argc > 2 ? atoi(argv[2]) : 7;
    printf("s3-all %.3f\n", s3(10000, 10000, frames));
    printf("s3-few %.3f\n", s3(10000, 10, frames));
    double on, off;
    s4(100000, rounds, &on, &off);
    printf("s4-on %.2f\n", on);
    printf("s4-off %.2f\n", off);
    return 0;
}
