/* The layers of ca-engine.c's engines, built once per state type: the file
 * that includes it defines ENGINE(name) (the engine's prefix), STATE (its
 * layer state struct) and STATE_DEFAULTS (fills a zeroed state with Core
 * Animation's defaults). */
#define LAYER ENGINE(layer)

typedef struct LAYER {
    STATE model;
    struct LAYER *superlayer;
    animation *animations;
    void *delegate;                       /* searched first: none here */
    int actions_count, style_count;       /* empty dictionaries */
    int presented;
    struct LAYER *next_animated;
} LAYER;

static LAYER *ENGINE(new_layer)(void) {
    LAYER *l = calloc(1, sizeof *l);
    STATE_DEFAULTS(&l->model);
    return l;
}

static double ENGINE(local_time)(const LAYER *l, double t) {
    double parent = l->superlayer ? ENGINE(local_time)(l->superlayer, t) : t;
    return (parent - l->model.begin_time) * l->model.speed + l->model.time_offset;
}

static void ENGINE(apply)(const LAYER *l, STATE *out, double t) {
    *out = l->model;
    double local = ENGINE(local_time)(l, t);
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

/* S3: µs per frame to evaluate every animated layer. */
static double ENGINE(s3)(int count, int animating, int frames) {
    LAYER *root = ENGINE(new_layer)();
    LAYER **layers = malloc(count * sizeof *layers);
    LAYER *animated = NULL;
    double clock = 2000;
    for (int i = 0; i < count; i++) {
        LAYER *l = layers[i] = ENGINE(new_layer)();
        l->superlayer = root;
        l->model.bounds = (rect){{0, 0}, {20, 20}};
        l->model.position = (point){(i % 100) * 20.0, (i / 100) * 20.0};
    }
    for (int i = 0; i < animating; i++) {
        LAYER *l = layers[i];
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
        for (LAYER *l = animated; l; l = l->next_animated) {
            STATE shown;
            ENGINE(apply)(l, &shown, clock);
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

/* The action search of rule A3 for an animatable key: delegate, actions, style,
 * class default (all empty here), then the implicit animation. */
static animation *ENGINE(action_for)(LAYER *l, int property, double at) {
    if (l->delegate) return NULL;
    if (l->actions_count) return NULL;
    if (l->style_count) return NULL;
    if (!l->presented) return NULL;
    return new_animation(property, at);
}

static void ENGINE(set_position)(LAYER *l, point p, transaction *t, int disabled, double at) {
    if (l->model.position.x == p.x && l->model.position.y == p.y) return;
    if (!disabled) {
        animation *a = ENGINE(action_for)(l, PROP_POSITION, at);
        if (a) {
            STATE shown;
            ENGINE(apply)(l, &shown, at);             /* the presentation value it starts from */
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
static void ENGINE(s4)(int count, int rounds, double *on, double *off) {
    LAYER *root = ENGINE(new_layer)();
    LAYER **layers = malloc(count * sizeof *layers);
    for (int i = 0; i < count; i++) {
        LAYER *l = layers[i] = ENGINE(new_layer)();
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
                ENGINE(set_position)(layers[i], (point){i % 1000 + offset, i / 1000}, &t, pass, clock);
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

#undef LAYER
