/* protocol-harness SOCKET [--no-cursor-shape]: a minimal Wayland server for the
 * protocol paths no compositor on this machine offers (today: cursor shapes,
 * wp_cursor_shape_v1). It offers wl_compositor, wl_shm, xdg_wm_base, a seat with
 * a pointer and — unless told not to — wp_cursor_shape_manager_v1; when a
 * client has a pointer and a surface it sends the pointer into that surface,
 * and it prints each request a test asserts on, one a line on stdout:
 *
 *   enter SERIAL            the pointer entered the client's first surface
 *   set_shape SERIAL SHAPE  wp_cursor_shape_device_v1.set_shape
 *   set_cursor SERIAL       wl_pointer.set_cursor (a themed cursor surface)
 *
 * It is not a compositor: nothing is drawn, buffers are never used. StrataTesting
 * compiles it on first use (with wayland-scanner for the protocols' glue).
 * It stops when the client disconnects or on SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-server.h>
#include "cursor-shape-v1-server-protocol.h"
#include "xdg-shell-server-protocol.h"

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

/* wl_surface: every request is accepted and ignored. */
static void surface_attach(struct wl_client *c, struct wl_resource *r, struct wl_resource *b, int32_t x, int32_t y) {}
static void surface_damage(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y, int32_t w, int32_t h) {}
static void surface_frame(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *cb = wl_resource_create(c, &wl_callback_interface, 1, id);
    wl_callback_send_done(cb, 0);
    wl_resource_destroy(cb);
}
static void surface_region(struct wl_client *c, struct wl_resource *r, struct wl_resource *region) {}
static void surface_commit(struct wl_client *c, struct wl_resource *r) {}
static void surface_transform(struct wl_client *c, struct wl_resource *r, int32_t t) {}
static void surface_scale(struct wl_client *c, struct wl_resource *r, int32_t s) {}
static void surface_offset(struct wl_client *c, struct wl_resource *r, int32_t x, int32_t y) {}
static const struct wl_surface_interface surface_impl = {
    destroy_request, surface_attach, surface_damage, surface_frame, surface_region, surface_region,
    surface_commit, surface_transform, surface_scale, surface_damage, surface_offset,
};

static void surface_gone(struct wl_resource *r) {
    if (r == first_surface) first_surface = NULL;
}

static void create_surface(struct wl_client *c, struct wl_resource *r, uint32_t id) {
    struct wl_resource *s = wl_resource_create(c, &wl_surface_interface, wl_resource_get_version(r), id);
    wl_resource_set_implementation(s, &surface_impl, NULL, surface_gone);
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

/* wl_shm: formats only; a pool is an object that does nothing. */
static void pool_buffer(struct wl_client *c, struct wl_resource *r, uint32_t id, int32_t o, int32_t w, int32_t h, int32_t s, uint32_t f) {
    static const struct wl_buffer_interface buffer_impl = {destroy_request};
    struct wl_resource *b = wl_resource_create(c, &wl_buffer_interface, 1, id);
    wl_resource_set_implementation(b, &buffer_impl, NULL, NULL);
}
static void pool_resize(struct wl_client *c, struct wl_resource *r, int32_t size) {}
static const struct wl_shm_pool_interface pool_impl = {pool_buffer, destroy_request, pool_resize};
static void shm_create_pool(struct wl_client *c, struct wl_resource *r, uint32_t id, int32_t fd, int32_t size) {
    close(fd);
    struct wl_resource *p = wl_resource_create(c, &wl_shm_pool_interface, 1, id);
    wl_resource_set_implementation(p, &pool_impl, NULL, NULL);
}
static const struct wl_shm_interface shm_impl = {shm_create_pool};
static void bind_shm(struct wl_client *c, void *data, uint32_t version, uint32_t id) {
    struct wl_resource *r = wl_resource_create(c, &wl_shm_interface, 1, id);
    wl_resource_set_implementation(r, &shm_impl, NULL, NULL);
    wl_shm_send_format(r, WL_SHM_FORMAT_ARGB8888);
    wl_shm_send_format(r, WL_SHM_FORMAT_XRGB8888);
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

static void client_gone(struct wl_listener *l, void *data) { wl_display_terminate(display); }
static struct wl_listener gone = {.notify = client_gone};
static void client_came(struct wl_listener *l, void *data) { wl_client_add_destroy_listener(data, &gone); }
static struct wl_listener came = {.notify = client_came};

static int stop(int signal, void *data) {
    wl_display_terminate(display);
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: protocol-harness SOCKET [--no-cursor-shape]\n");
        return 2;
    }
    display = wl_display_create();
    if (wl_display_add_socket(display, argv[1]) != 0) {
        fprintf(stderr, "protocol-harness: cannot open the socket %s\n", argv[1]);
        return 1;
    }
    wl_global_create(display, &wl_compositor_interface, 4, NULL, bind_compositor);
    wl_global_create(display, &wl_shm_interface, 1, NULL, bind_shm);
    wl_global_create(display, &xdg_wm_base_interface, 1, NULL, bind_wm);
    wl_global_create(display, &wl_seat_interface, 5, NULL, bind_seat);
    if (!(argc > 2 && strcmp(argv[2], "--no-cursor-shape") == 0))
        wl_global_create(display, &wp_cursor_shape_manager_v1_interface, 1, NULL, bind_shapes);
    wl_display_add_client_created_listener(display, &came);
    wl_event_loop_add_signal(wl_display_get_event_loop(display), SIGTERM, stop, NULL);
    printf("ready\n");
    fflush(stdout);
    wl_display_run(display);
    wl_display_destroy(display);
    return 0;
}
