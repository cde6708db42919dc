/* kwin-screenshot OUTPUT: captures kwin's active screen through its D-Bus
 * ScreenShot2 interface (CaptureActiveScreen, which writes raw pixels into a
 * pipe passed as a file descriptor — what no D-Bus command line tool can pass)
 * and writes "width height stride format\n" and the pixels to OUTPUT.
 * StrataTesting runs it (HeadlessKWin.screenshot, see tools.c); it talks
 * to the session bus in DBUS_SESSION_BUS_ADDRESS. Exit status 1 with a message
 * on failure. */
#include "StrataTestingTools.h"
#include <gio/gio.h>
#include <gio/gunixfdlist.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static GVariant *reply;
static GError *failure;

static void replied(GObject *source, GAsyncResult *result, gpointer done) {
    reply = g_dbus_connection_call_with_unix_fd_list_finish(G_DBUS_CONNECTION(source), NULL, result, &failure);
    *(gboolean *)done = TRUE;
}

static int fail(const char *what, GError *error) {
    fprintf(stderr, "kwin-screenshot: %s: %s\n", what, error ? error->message : "failed");
    return 1;
}

int strata_tool_kwin_screenshot(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: kwin-screenshot OUTPUT\n");
        return 2;
    }
    GError *error = NULL;
    GDBusConnection *bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) return fail("session bus", error);
    int fds[2];
    if (pipe(fds) != 0) return fail("pipe", NULL);
    GUnixFDList *list = g_unix_fd_list_new();
    int index = g_unix_fd_list_append(list, fds[1], &error);
    close(fds[1]);
    if (index < 0) return fail("fd list", error);
    GVariantBuilder options;
    g_variant_builder_init(&options, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&options, "{sv}", "native-resolution", g_variant_new_boolean(TRUE));
    gboolean done = FALSE;
    /* Asynchronous: kwin writes the pixels while the call is answered, and a pipe
     * holds far less than a screen, so the pixels are read meanwhile. */
    g_dbus_connection_call_with_unix_fd_list(bus, "org.kde.KWin.ScreenShot2", "/org/kde/KWin/ScreenShot2", "org.kde.KWin.ScreenShot2",
                                             "CaptureActiveScreen", g_variant_new("(a{sv}h)", &options, index),
                                             G_VARIANT_TYPE("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, 10000, list, NULL, replied, &done);
    g_object_unref(list);
    GByteArray *pixels = g_byte_array_new();
    guint8 chunk[65536];
    ssize_t n;
    while ((n = read(fds[0], chunk, sizeof chunk)) > 0) g_byte_array_append(pixels, chunk, (guint)n);
    close(fds[0]);
    while (!done) g_main_context_iteration(NULL, TRUE);
    if (!reply) return fail("CaptureActiveScreen", failure);
    GVariant *results = g_variant_get_child_value(reply, 0);
    guint32 width = 0, height = 0, stride = 0, format = 0;
    g_variant_lookup(results, "width", "u", &width);
    g_variant_lookup(results, "height", "u", &height);
    g_variant_lookup(results, "stride", "u", &stride);
    g_variant_lookup(results, "format", "u", &format);
    if (width == 0 || height == 0 || (guint64)stride * height > pixels->len) return fail("the image", NULL);
    FILE *out = fopen(argv[1], "wb");
    if (!out) return fail("output", NULL);
    fprintf(out, "%u %u %u %u\n", width, height, stride, format);
    fwrite(pixels->data, 1, (size_t)stride * height, out);
    fclose(out);
    return 0;
}
