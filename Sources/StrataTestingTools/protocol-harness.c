/* protocol-harness SOCKET [--no-cursor-shape] [--image-copy-capture[=bad]]
 *                         [--session-lock[=refuse]] [--layer-shell]: a
 * minimal Wayland server for the protocol paths no compositor on this machine
 * offers (cursor shapes, wp_cursor_shape_v1; output capture through
 * ext-image-copy-capture-v1; session locks, ext-session-lock-v1). It offers
 * wl_compositor, libwayland's wl_shm,
 * xdg_wm_base, a seat with a pointer, — unless told not to —
 * wp_cursor_shape_manager_v1, and on request a 64×48 output whose captures
 * are a known pattern (pixel x, y: red 4x, green 5y, blue 0x80; "=bad" asks for
 * a buffer size it then refuses, to test failures), or a session lock manager
 * with that output: it says `locked` once every lock surface has a buffer
 * committed after its configure ("=refuse": `finished` at once, as when another
 * client holds the lock), or a layer shell with that output (each layer surface
 * configured to its size, or the output's on an axis it leaves at 0; those on
 * the second output closed when it goes). SIGUSR1 adds a second output, SIGUSR2
 * removes it. When
 * a client has a pointer and a surface it sends the pointer into that surface,
 * and it prints each request a test asserts on, one a line on stdout:
 *
 *   enter SERIAL            the pointer entered the client's first surface
 *   set_shape SERIAL SHAPE  wp_cursor_shape_device_v1.set_shape
 *   set_cursor SERIAL       wl_pointer.set_cursor (a themed cursor surface)
 *   captured W H FORMAT     a frame copied into the client's buffer
 *   lock / refused          ext_session_lock_manager_v1.lock (granted or refused)
 *   lock_surface W H        a lock surface made (and configured at W×H)
 *   locked                  every lock surface drawn: the session is locked
 *   unlocked / withdrawn    unlock_and_destroy after locked / destroy before it
 *   output added|removed    the second output came or went
 *   layer_surface NAMESPACE a layer surface made
 *   layer closed            a layer surface on the removed output closed
 *
 * It is not a compositor: nothing is drawn, buffers are never used. StrataTesting
 * runs it (ProtocolHarness, see tools.c); the protocols' glue in Protocols/ is
 * wayland-scanner's, made by Protocols/generate.py.
 * It serves one client after another and stops on SIGTERM. */
#include "StrataTestingTools.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>
#include "Protocols/cursor-shape-v1-server-protocol.h"
#include "Protocols/ext-image-copy-capture-v1-server-protocol.h"
#include "Protocols/ext-session-lock-v1-server-protocol.h"
#include "Protocols/wlr-layer-shell-unstable-v1-server-protocol.h"
#include "Protocols/xdg-shell-server-protocol.h"

static struct wl_display *display;
static struct wl_resource *pointer, *first_surface;
static int entered;

static void destroy_request(struct wl_client *client, struct wl_resource *resource) { wl_resource_destroy(resource); }

static void maybe_enter(void) {
    if (entered || !pointer || !first_surface) return;
    entered = 1;
    uint32_t serial = wl_display_next_serial(display);
    wl_pointer_send_enter(pointer, serial, first_surface, wl_fixed_from_int(10), wl_fixed_from_int(10));
    if (wl_resource_get_version(pointer) >= 5) wl_pointer_send_frame(pointer);
    printf("enter %u\n", serial);
    fflush(stdout);
}

/* wl_surface: every request is accepted; only a lock surface's buffers count. */
struct lock_surface;
struct layer_surface;
struct surface_state { struct wl_resource *pending_buffer; struct lock_surface *lock; struct layer_surface *layer; };
static void lock_surface_committed(struct lock_surface *l, int has_buffer);
static void layer_surface_committed(struct layer_surface *l);
static void surface_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *b, int32_t x, int32_t y) {
    ((struct surface_state *)wl_resource_get_user_data(r))->pending_buffer = b;
}
static void surface_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static void surface_frame(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *cb = wl_resource_create(c, &wl_callback_interface, 1, id);
    wl_callback_send_done(cb, 0);
    wl_resource_destroy(cb);
}
static void surface_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region) {}
static void surface_commit(struct wl_client *c, struct wl_resource *r) {
    struct surface_state *st = wl_resource_get_user_data(r);
    if (st->lock) lock_surface_committed(st->lock, st->pending_buffer != NULL);
    if (st->layer) layer_surface_committed(st->layer);
}
static void surface_transform(struct wl_client *c, struct wl_resource *r, int32_t t) {}
static void surface_scale(struct wl_client *c, struct wl_resource *r, int32_t s) {}
static void surface_offset(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y) {}
static const struct wl_surface_interface surface_impl = {
    destroy_request, surface_attach, surface_damage, surface_frame, surface_region, surface_region,
    surface_commit, surface_transform, surface_scale, surface_damage, surface_offset,
};

static void surface_gone(struct wl_resource *r) {
    if (r == first_surface) first_surface = NULL;
    free(wl_resource_get_user_data(r));
}

static void create_surface(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *s = wl_resource_create(c, &wl_surface_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(s, &surface_impl, calloc(1, sizeof(struct surface_state)), surface_gone);
    if (!first_surface) first_surface = s;
    maybe_enter();
}
static void create_region(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    static const struct wl_region_interface region_impl = {destroy_request, (void *)surface_damage, (void *)surface_damage};
    struct wl_resource *region = wl_resource_create(c, &wl_region_interface, 1, id);
    wl_resource_set_implementation(region, &region_impl, NULL, NULL);
}
static const struct wl_compositor_interface compositor_impl = {create_surface, create_region};
static void bind_compositor(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wl_compositor_interface, version, id);
    wl_resource_set_implementation(r, &compositor_impl, NULL, NULL);
}

/* xdg_wm_base: bound, never used by the tests. */
static void wm_positioner(struct wl_client *c, struct wl_resource *r, uint32_t id) { wl_client_post_no_memory(c); }
static void wm_surface(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *s) { wl_client_post_no_memory(c); }
static void wm_pong(struct wl_client *c, struct wl_resource *r, uint32_t serial) {}
static const struct xdg_wm_base_interface wm_impl = {destroy_request, wm_positioner, wm_surface, wm_pong};
static void bind_wm(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &xdg_wm_base_interface, version, id);
    wl_resource_set_implementation(r, &wm_impl, NULL, NULL);
}

/* wl_seat with a pointer. */
static void pointer_set_cursor(struct wl_client *c, struct wl_resource *r, uint32_t serial, struct wl_resource *s, int32_t x, int32_t y) {
    printf("set_cursor %u\n", serial);
    fflush(stdout);
}
static const struct wl_pointer_interface pointer_impl = {pointer_set_cursor, destroy_request};
static void pointer_gone(struct wl_resource *r) {
    if (r == pointer) pointer = NULL;
}
static void seat_pointer(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *p = wl_resource_create(c, &wl_pointer_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(p, &pointer_impl, NULL, pointer_gone);
    if (!pointer) pointer = p;
    maybe_enter();
}
static void seat_none(struct wl_client *c, struct wl_resource *r, uint32_t id) { wl_client_post_no_memory(c); }
static const struct wl_seat_interface seat_impl = {seat_pointer, seat_none, seat_none, destroy_request};
static void bind_seat(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wl_seat_interface, version, id);
    wl_resource_set_implementation(r, &seat_impl, NULL, NULL);
    wl_seat_send_capabilities(r, WL_SEAT_CAPABILITY_POINTER);
    if (version >= 2) wl_seat_send_name(r, "harness");
}

/* wp_cursor_shape_v1. */
static void shape_set(struct wl_client *c, struct wl_resource *r, uint32_t serial, uint32_t shape) {
    if (shape < WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_DEFAULT || shape > WP_CURSOR_SHAPE_DEVICE_V1_SHAPE_ZOOM_OUT) {
        wl_resource_post_error(r, WP_CURSOR_SHAPE_DEVICE_V1_ERROR_INVALID_SHAPE, "shape %u", shape);
        return;
    }
    printf("set_shape %u %u\n", serial, shape);
    fflush(stdout);
}
static const struct wp_cursor_shape_device_v1_interface shape_device_impl = {destroy_request, shape_set};
static void shapes_pointer(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *p) {
    struct wl_resource *d = wl_resource_create(c, &wp_cursor_shape_device_v1_interface, 1, id);
    wl_resource_set_implementation(d, &shape_device_impl, NULL, NULL);
}
static const struct wp_cursor_shape_manager_v1_interface shapes_impl = {destroy_request, shapes_pointer};
static void bind_shapes(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wp_cursor_shape_manager_v1_interface, 1, id);
    wl_resource_set_implementation(r, &shapes_impl, NULL, NULL);
}

/* An output and captures of it (ext-image-capture-source-v1, ext-image-copy-capture-v1). */
enum { OUTPUT_W = 64, OUTPUT_H = 48 };
static int refuse_buffers;

static void bind_output(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    static const struct wl_output_interface output_impl = {destroy_request};
    struct wl_resource *r = wl_resource_create(c, &wl_output_interface, version, id);
    wl_resource_set_implementation(r, &output_impl, data, NULL);   /* data: 2 for the second output */
    wl_output_send_geometry(r, 0, 0, 0, 0, WL_OUTPUT_SUBPIXEL_UNKNOWN, "strata", "harness", WL_OUTPUT_TRANSFORM_NORMAL);
    wl_output_send_mode(r, WL_OUTPUT_MODE_CURRENT, OUTPUT_W, OUTPUT_H, 60000);
    if (version >= 2) wl_output_send_scale(r, 1), wl_output_send_done(r);
}

static const struct ext_image_capture_source_v1_interface source_impl = {destroy_request};
static void create_source(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *output) {
    struct wl_resource *s = wl_resource_create(c, &ext_image_capture_source_v1_interface, 1, id);
    wl_resource_set_implementation(s, &source_impl, NULL, NULL);
}
static const struct ext_output_image_capture_source_manager_v1_interface sources_impl = {create_source, destroy_request};
static void bind_sources(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &ext_output_image_capture_source_manager_v1_interface, 1, id);
    wl_resource_set_implementation(r, &sources_impl, NULL, NULL);
}

struct frame { struct wl_resource *buffer; int captured; };
static void frame_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *buffer) {
    ((struct frame *)wl_resource_get_user_data(r))->buffer = buffer;
}
static void frame_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {
    if (x < 0 || y < 0 || w <= 0 || h <= 0)
        wl_resource_post_error(r, EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_INVALID_BUFFER_DAMAGE, "damage %d,%d %dx%d", x, y, w, h);
}
static void frame_capture(struct wl_client *c, struct wl_resource *r) {
    struct frame *f = wl_resource_get_user_data(r);
    if (f->captured) return wl_resource_post_error(r, EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_ALREADY_CAPTURED, "captured");
    if (!f->buffer) return wl_resource_post_error(r, EXT_IMAGE_COPY_CAPTURE_FRAME_V1_ERROR_NO_BUFFER, "no buffer");
    f->captured = 1;
    struct wl_shm_buffer *shm = wl_shm_buffer_get(f->buffer);
    if (refuse_buffers || !shm || wl_shm_buffer_get_width(shm) != OUTPUT_W || wl_shm_buffer_get_height(shm) != OUTPUT_H) {
        ext_image_copy_capture_frame_v1_send_failed(r, EXT_IMAGE_COPY_CAPTURE_FRAME_V1_FAILURE_REASON_BUFFER_CONSTRAINTS);
        return;
    }
    int32_t stride = wl_shm_buffer_get_stride(shm);
    uint32_t format = wl_shm_buffer_get_format(shm);
    wl_shm_buffer_begin_access(shm);
    uint8_t *rows = wl_shm_buffer_get_data(shm);
    for (int y = 0; y < OUTPUT_H; y++)
        for (int x = 0; x < OUTPUT_W; x++)
            ((uint32_t *)(rows + y * stride))[x] = 0xff000000u | (uint32_t)(x * 4) << 16 | (uint32_t)(y * 5) << 8 | 0x80;
    wl_shm_buffer_end_access(shm);
    ext_image_copy_capture_frame_v1_send_transform(r, WL_OUTPUT_TRANSFORM_NORMAL);
    ext_image_copy_capture_frame_v1_send_damage(r, 0, 0, OUTPUT_W, OUTPUT_H);
    ext_image_copy_capture_frame_v1_send_presentation_time(r, 0, 1, 0);
    ext_image_copy_capture_frame_v1_send_ready(r);
    printf("captured %d %d %u\n", OUTPUT_W, OUTPUT_H, format);
    fflush(stdout);
}
static const struct ext_image_copy_capture_frame_v1_interface frame_impl = {destroy_request, frame_attach, frame_damage, frame_capture};
static void frame_gone(struct wl_resource *r) { free(wl_resource_get_user_data(r)); }
static void session_frame(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *f = wl_resource_create(c, &ext_image_copy_capture_frame_v1_interface, 1, id);
    wl_resource_set_implementation(f, &frame_impl, calloc(1, sizeof(struct frame)), frame_gone);
}
static const struct ext_image_copy_capture_session_v1_interface session_impl = {session_frame, destroy_request};
static void create_session(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *source, uint32_t options) {
    if (options > EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_OPTIONS_PAINT_CURSORS)
        return wl_resource_post_error(r, EXT_IMAGE_COPY_CAPTURE_MANAGER_V1_ERROR_INVALID_OPTION, "options %u", options);
    struct wl_resource *s = wl_resource_create(c, &ext_image_copy_capture_session_v1_interface, 1, id);
    wl_resource_set_implementation(s, &session_impl, NULL, NULL);
    ext_image_copy_capture_session_v1_send_buffer_size(s, OUTPUT_W, OUTPUT_H);
    ext_image_copy_capture_session_v1_send_shm_format(s, WL_SHM_FORMAT_XRGB8888);
    ext_image_copy_capture_session_v1_send_shm_format(s, WL_SHM_FORMAT_ARGB8888);
    ext_image_copy_capture_session_v1_send_done(s);
}
static void cursor_session(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *s, struct wl_resource *p) {
    wl_client_post_no_memory(c);
}
static const struct ext_image_copy_capture_manager_v1_interface captures_impl = {create_session, cursor_session, destroy_request};
static void bind_captures(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &ext_image_copy_capture_manager_v1_interface, 1, id);
    wl_resource_set_implementation(r, &captures_impl, NULL, NULL);
}

/* ext_session_lock_v1: one lock at a time; `locked` once every lock surface is drawn. */
static int lock_refuses;
static struct wl_resource *current_lock;
static int lock_surfaces, drawn_lock_surfaces, lock_granted;
struct lock_surface { struct wl_resource *resource, *surface; uint32_t serial; int acked, drawn; };

static void lock_surface_committed(struct lock_surface *l, int has_buffer) {
    if (!l->acked || !has_buffer || l->drawn || !current_lock) return;
    l->drawn = 1;
    if (++drawn_lock_surfaces == lock_surfaces && !lock_granted) {
        lock_granted = 1;
        ext_session_lock_v1_send_locked(current_lock);
        printf("locked\n");
        fflush(stdout);
    }
}
static void lock_surface_ack(struct wl_client *c, struct wl_resource *r, uint32_t serial) {
    struct lock_surface *l = wl_resource_get_user_data(r);
    if (serial == l->serial) l->acked = 1;
}
static void lock_surface_gone(struct wl_resource *r) {
    struct lock_surface *l = wl_resource_get_user_data(r);
    if (l->surface) ((struct surface_state *)wl_resource_get_user_data(l->surface))->lock = NULL;
    free(l);
}
static const struct ext_session_lock_surface_v1_interface lock_surface_impl = {destroy_request, lock_surface_ack};
static void lock_get_surface(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface, struct wl_resource *output) {
    struct lock_surface *l = calloc(1, sizeof *l);
    l->resource = wl_resource_create(c, &ext_session_lock_surface_v1_interface, 1, id);
    l->surface = surface;
    wl_resource_set_implementation(l->resource, &lock_surface_impl, l, lock_surface_gone);
    ((struct surface_state *)wl_resource_get_user_data(surface))->lock = l;
    lock_surfaces++;
    l->serial = wl_display_next_serial(display);
    ext_session_lock_surface_v1_send_configure(l->resource, l->serial, OUTPUT_W, OUTPUT_H);
    printf("lock_surface %d %d\n", OUTPUT_W, OUTPUT_H);
    fflush(stdout);
}
static void lock_destroy(struct wl_client *c, struct wl_resource *r) {
    if (r == current_lock && lock_granted) {
        wl_resource_post_error(r, EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY, "destroy after locked: unlock_and_destroy");
        return;
    }
    if (r == current_lock) printf("withdrawn\n"), fflush(stdout);
    wl_resource_destroy(r);
}
static void lock_unlock(struct wl_client *c, struct wl_resource *r) {
    if (r != current_lock || !lock_granted) {
        wl_resource_post_error(r, EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK, "unlock before locked");
        return;
    }
    printf("unlocked\n");
    fflush(stdout);
    wl_resource_destroy(r);
}
static void lock_gone(struct wl_resource *r) {
    if (r != current_lock) return;
    if (lock_granted) printf("lock gone\n"), fflush(stdout);
    current_lock = NULL;
    lock_surfaces = drawn_lock_surfaces = lock_granted = 0;
}
static const struct ext_session_lock_v1_interface lock_impl = {lock_destroy, lock_get_surface, lock_unlock};
static void manager_lock(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *l = wl_resource_create(c, &ext_session_lock_v1_interface, 1, id);
    wl_resource_set_implementation(l, &lock_impl, NULL, lock_gone);
    if (lock_refuses || current_lock) {
        ext_session_lock_v1_send_finished(l);
        printf("refused\n");
    } else {
        current_lock = l;
        printf("lock\n");
    }
    fflush(stdout);
}
static const struct ext_session_lock_manager_v1_interface lock_manager_impl = {destroy_request, manager_lock};
static void bind_lock_manager(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &ext_session_lock_manager_v1_interface, 1, id);
    wl_resource_set_implementation(r, &lock_manager_impl, NULL, NULL);
}

/* zwlr_layer_shell_v1: configured at the size asked for (the output's on an axis at 0). */
struct layer_surface { struct wl_resource *resource, *surface, *output; uint32_t width, height; int configured_width, configured_height; struct wl_list link; };
static struct wl_list layer_surfaces;

static void layer_surface_committed(struct layer_surface *l) {
    int w = l->width ? (int)l->width : OUTPUT_W, h = l->height ? (int)l->height : OUTPUT_H;
    if (w == l->configured_width && h == l->configured_height) return;
    l->configured_width = w, l->configured_height = h;
    zwlr_layer_surface_v1_send_configure(l->resource, wl_display_next_serial(display), (uint32_t)w, (uint32_t)h);
}
static void layer_set_size(struct wl_client *c, struct wl_resource *r, uint32_t w, uint32_t h) {
    struct layer_surface *l = wl_resource_get_user_data(r);
    l->width = w, l->height = h;
}
static void layer_ignore_u(struct wl_client *c, struct wl_resource *r, uint32_t v) {}
static void layer_ignore_i(struct wl_client *c, struct wl_resource *r, int32_t v) {}
static void layer_margin(struct wl_client *c, struct wl_resource *r, int32_t t, int32_t rr, int32_t b, int32_t l) {}
static void layer_popup(struct wl_client *c, struct wl_resource *r, struct wl_resource *popup) {}
static const struct zwlr_layer_surface_v1_interface layer_surface_impl = {
    layer_set_size, layer_ignore_u, layer_ignore_i, layer_margin, layer_ignore_u, layer_popup, layer_ignore_u, destroy_request, layer_ignore_u,
};
static void layer_surface_gone(struct wl_resource *r) {
    struct layer_surface *l = wl_resource_get_user_data(r);
    if (l->surface) ((struct surface_state *)wl_resource_get_user_data(l->surface))->layer = NULL;
    wl_list_remove(&l->link);
    free(l);
}
static void shell_get_layer_surface(struct wl_client *c, struct wl_resource *r, uint32_t id, struct wl_resource *surface,
                                    struct wl_resource *output, uint32_t layer, const char *namespace) {
    struct layer_surface *l = calloc(1, sizeof *l);
    l->resource = wl_resource_create(c, &zwlr_layer_surface_v1_interface, wl_resource_get_version(r), id);
    l->surface = surface, l->output = output;
    wl_resource_set_implementation(l->resource, &layer_surface_impl, l, layer_surface_gone);
    ((struct surface_state *)wl_resource_get_user_data(surface))->layer = l;
    wl_list_insert(&layer_surfaces, &l->link);
    printf("layer_surface %s\n", namespace);
    fflush(stdout);
}
static const struct zwlr_layer_shell_v1_interface layer_shell_impl = {shell_get_layer_surface, destroy_request};
static void bind_layer_shell(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &zwlr_layer_shell_v1_interface, version, id);
    wl_resource_set_implementation(r, &layer_shell_impl, NULL, NULL);
}
static void close_layer_surfaces_on_second_output(void) {
    struct layer_surface *l;
    wl_list_for_each(l, &layer_surfaces, link) {
        if (l->output && wl_resource_get_user_data(l->output) == (void *)2) {
            zwlr_layer_surface_v1_send_closed(l->resource);
            printf("layer closed\n");
        }
    }
}

/* A second output, added on SIGUSR1 and removed on SIGUSR2. */
static struct wl_global *second_output;
static int output_signal(int signal, void *data) {
    if (signal == SIGUSR1 && !second_output) {
        second_output = wl_global_create(display, &wl_output_interface, 2, (void *)2, bind_output);
        printf("output added\n");
    } else if (signal == SIGUSR2 && second_output) {
        wl_global_destroy(second_output);
        second_output = NULL;
        close_layer_surfaces_on_second_output();
        printf("output removed\n");
    }
    fflush(stdout);
    return 0;
}

/* Each client starts afresh: its pointer enters its own first surface. */
static void client_gone(struct wl_listener *l, void *data) {
    wl_list_remove(&l->link);
    free(l);
    entered = 0;
}
static void client_came(struct wl_listener *l, void *data) {
    struct wl_listener *gone = calloc(1, sizeof *gone);
    gone->notify = client_gone;
    wl_client_add_destroy_listener(data, gone);
}
static struct wl_listener came = {.notify = client_came};

static int stop(int signal, void *data) {
    wl_display_terminate(display);
    return 0;
}

int strata_tool_protocol_harness(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: protocol-harness SOCKET [--no-cursor-shape] [--image-copy-capture[=bad]] [--session-lock[=refuse]] [--layer-shell]\n");
        return 2;
    }
    display = wl_display_create();
    if (wl_display_add_socket(display, argv[1]) != 0) {
        fprintf(stderr, "protocol-harness: cannot open the socket %s\n", argv[1]);
        return 1;
    }
    wl_global_create(display, &wl_compositor_interface, 4, NULL, bind_compositor);
    wl_display_init_shm(display);
    wl_global_create(display, &xdg_wm_base_interface, 1, NULL, bind_wm);
    wl_global_create(display, &wl_seat_interface, 5, NULL, bind_seat);
    int shapes = 1, captures = 0, locks = 0, layers = 0;
    wl_list_init(&layer_surfaces);
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--no-cursor-shape") == 0) shapes = 0;
        if (strncmp(argv[i], "--image-copy-capture", 20) == 0) captures = 1, refuse_buffers = strcmp(argv[i] + 20, "=bad") == 0;
        if (strncmp(argv[i], "--session-lock", 14) == 0) locks = 1, lock_refuses = strcmp(argv[i] + 14, "=refuse") == 0;
        if (strcmp(argv[i], "--layer-shell") == 0) layers = 1;
    }
    if (shapes) wl_global_create(display, &wp_cursor_shape_manager_v1_interface, 1, NULL, bind_shapes);
    if (captures || locks || layers) wl_global_create(display, &wl_output_interface, 2, NULL, bind_output);
    if (layers) wl_global_create(display, &zwlr_layer_shell_v1_interface, 3, NULL, bind_layer_shell);
    if (locks) wl_global_create(display, &ext_session_lock_manager_v1_interface, 1, NULL, bind_lock_manager);
    if (locks || layers) {
        wl_event_loop_add_signal(wl_display_get_event_loop(display), SIGUSR1, output_signal, NULL);
        wl_event_loop_add_signal(wl_display_get_event_loop(display), SIGUSR2, output_signal, NULL);
    }
    if (captures) {
        wl_global_create(display, &ext_output_image_capture_source_manager_v1_interface, 1, NULL, bind_sources);
        wl_global_create(display, &ext_image_copy_capture_manager_v1_interface, 1, NULL, bind_captures);
    }
    wl_display_add_client_created_listener(display, &came);
    wl_event_loop_add_signal(wl_display_get_event_loop(display), SIGTERM, stop, NULL);
    printf("ready\n");
    fflush(stdout);
    wl_display_run(display);
    wl_display_destroy(display);
    return 0;
}
