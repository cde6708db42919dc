/* mutter-remote: drives a headless mutter through its D-Bus RemoteDesktop and
 * ScreenCast interfaces, for StrataTesting (HeadlessMutter runs it, see
 * tools.c). Both sessions live as long as this process's bus connection, so it
 * stays running and takes one command per line on stdin:
 *
 *   motion X Y            pointer to X, Y (logical pixels of the monitor)
 *   button CODE 0|1       evdev button code (BTN_LEFT = 272) released/pressed
 *   axis DX DY            smooth scroll in logical pixels
 *   wheel AXIS STEPS      discrete wheel steps (axis 0 vertical, 1 horizontal)
 *   key CODE 0|1          evdev key code
 *   keysym SYM 0|1        X keysym, resolved by mutter's keymap
 *   touch-down SLOT X Y / touch-motion SLOT X Y / touch-up SLOT
 *
 * answering "ok" or "error MESSAGE" after mutter has handled the call. At start
 * it records the first monitor (no cursor drawn), starts the sessions, makes
 * the virtual keyboard and pointer and prints "ready NODE", NODE being the PipeWire node of the monitor's stream
 * (absolute motion and touch need a stream; captures read the node).
 * Run as "mutter-remote capture" it makes a screen-cast session of its own, no
 * input, prints "ready NODE" and waits for stdin to close.
 * The bus is DBUS_SESSION_BUS_ADDRESS; mutter connects to PipeWire itself. */
#include "StrataTestingTools.h"
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static GDBusConnection *bus;
static char *remote_session, *stream;
static guint32 node;

static GVariant *call(const char *name, const char *path, const char *interface, const char *method,
                      GVariant *arguments, GError **error) {
    return g_dbus_connection_call_sync(bus, name, path, interface, method, arguments, NULL, G_DBUS_CALL_FLAGS_NONE, 10000,
                                       NULL, error);
}

static int fail(const char *what, GError *error) {
    fprintf(stderr, "mutter-remote: %s: %s\n", what, error ? error->message : "failed");
    return 1;
}

static void stream_added(GDBusConnection *c, const char *sender, const char *path, const char *interface,
                         const char *signal, GVariant *parameters, gpointer data) {
    g_variant_get(parameters, "(u)", &node);
    *(gboolean *)data = TRUE;
}

static gboolean time_out(gpointer data) {
    *(gboolean *)data = TRUE;
    return G_SOURCE_REMOVE;
}

/* The connector of the first monitor DisplayConfig lists ("Meta-0" headless). */
static char *first_connector(GError **error) {
    GVariant *state = call("org.gnome.Mutter.DisplayConfig", "/org/gnome/Mutter/DisplayConfig", "org.gnome.Mutter.DisplayConfig",
                           "GetCurrentState", NULL, error);
    if (!state) return NULL;
    GVariant *monitors = g_variant_get_child_value(state, 1);
    char *connector = NULL;
    if (g_variant_n_children(monitors) > 0) {
        GVariant *monitor = g_variant_get_child_value(monitors, 0);
        GVariant *spec = g_variant_get_child_value(monitor, 0);
        g_variant_get_child(spec, 0, "s", &connector);
    }
    return connector;
}

static GVariant *session_call(const char *method, GVariant *arguments, GError **error) {
    return call("org.gnome.Mutter.RemoteDesktop", remote_session, "org.gnome.Mutter.RemoteDesktop.Session", method, arguments, error);
}

/* One command line; the arguments mutter's method takes, or NULL if malformed. */
static GVariant *arguments_for(const char *line, const char **method) {
    double x, y;
    unsigned a, b;
    int steps;
    if (sscanf(line, "motion %lf %lf", &x, &y) == 2) {
        *method = "NotifyPointerMotionAbsolute";
        return g_variant_new("(sdd)", stream, x, y);
    }
    if (sscanf(line, "button %u %u", &a, &b) == 2) {
        *method = "NotifyPointerButton";
        return g_variant_new("(ib)", (gint32)a, b != 0);
    }
    if (sscanf(line, "axis %lf %lf", &x, &y) == 2) {
        *method = "NotifyPointerAxis";
        return g_variant_new("(ddu)", x, y, 1u); /* 1: the scroll finished */
    }
    if (sscanf(line, "wheel %u %d", &a, &steps) == 2) {
        *method = "NotifyPointerAxisDiscrete";
        return g_variant_new("(ui)", a, (gint32)steps);
    }
    if (sscanf(line, "keysym %u %u", &a, &b) == 2) {
        *method = "NotifyKeyboardKeysym";
        return g_variant_new("(ub)", a, b != 0);
    }
    if (sscanf(line, "key %u %u", &a, &b) == 2) {
        *method = "NotifyKeyboardKeycode";
        return g_variant_new("(ub)", a, b != 0);
    }
    if (sscanf(line, "touch-down %u %lf %lf", &a, &x, &y) == 3) {
        *method = "NotifyTouchDown";
        return g_variant_new("(sudd)", stream, a, x, y);
    }
    if (sscanf(line, "touch-motion %u %lf %lf", &a, &x, &y) == 3) {
        *method = "NotifyTouchMotion";
        return g_variant_new("(sudd)", stream, a, x, y);
    }
    if (sscanf(line, "touch-up %u", &a) == 1) {
        *method = "NotifyTouchUp";
        return g_variant_new("(u)", a);
    }
    return NULL;
}

int strata_tool_mutter_remote(int argc, char **argv) {
    gboolean capture_only = argc > 1 && strcmp(argv[1], "capture") == 0;
    GError *error = NULL;
    bus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, &error);
    if (!bus) return fail("session bus", error);

    GVariant *r;
    GVariantBuilder properties;
    g_variant_builder_init(&properties, G_VARIANT_TYPE("a{sv}"));
    if (!capture_only) {
        r = call("org.gnome.Mutter.RemoteDesktop", "/org/gnome/Mutter/RemoteDesktop", "org.gnome.Mutter.RemoteDesktop",
                 "CreateSession", NULL, &error);
        if (!r) return fail("RemoteDesktop.CreateSession", error);
        g_variant_get(r, "(o)", &remote_session);
        r = call("org.gnome.Mutter.RemoteDesktop", remote_session, "org.freedesktop.DBus.Properties", "Get",
                 g_variant_new("(ss)", "org.gnome.Mutter.RemoteDesktop.Session", "SessionId"), &error);
        if (!r) return fail("SessionId", error);
        GVariant *id;
        g_variant_get(r, "(v)", &id);
        g_variant_builder_add(&properties, "{sv}", "remote-desktop-session-id", id);
    }
    r = call("org.gnome.Mutter.ScreenCast", "/org/gnome/Mutter/ScreenCast", "org.gnome.Mutter.ScreenCast", "CreateSession",
             g_variant_new("(a{sv})", &properties), &error);
    if (!r) return fail("ScreenCast.CreateSession", error);
    char *cast_session;
    g_variant_get(r, "(o)", &cast_session);

    char *connector = first_connector(&error);
    if (!connector) return fail("DisplayConfig.GetCurrentState (no monitor)", error);
    g_variant_builder_init(&properties, G_VARIANT_TYPE("a{sv}"));
    g_variant_builder_add(&properties, "{sv}", "cursor-mode", g_variant_new_uint32(0)); /* hidden */
    r = call("org.gnome.Mutter.ScreenCast", cast_session, "org.gnome.Mutter.ScreenCast.Session", "RecordMonitor",
             g_variant_new("(sa{sv})", connector, &properties), &error);
    if (!r) return fail("ScreenCast.Session.RecordMonitor", error);
    g_variant_get(r, "(o)", &stream);

    gboolean added = FALSE;
    g_dbus_connection_signal_subscribe(bus, NULL, "org.gnome.Mutter.ScreenCast.Stream", "PipeWireStreamAdded", stream, NULL,
                                       G_DBUS_SIGNAL_FLAGS_NONE, stream_added, &added, NULL);
    if (capture_only) {
        if (!call("org.gnome.Mutter.ScreenCast", cast_session, "org.gnome.Mutter.ScreenCast.Session", "Start", NULL, &error))
            return fail("ScreenCast.Session.Start", error);
    } else if (!session_call("Start", NULL, &error)) {
        return fail("RemoteDesktop.Session.Start", error);
    }
    gboolean late = FALSE;
    g_timeout_add_seconds(10, time_out, &late);
    while (!added && !late) g_main_context_iteration(NULL, TRUE);
    if (!added) return fail("no PipeWire stream within 10 s (is pipewire running?)", NULL);
    if (capture_only) {
        printf("ready %u\n", node);
        fflush(stdout);
        char line[256];
        while (fgets(line, sizeof line, stdin)) {}
        call("org.gnome.Mutter.ScreenCast", cast_session, "org.gnome.Mutter.ScreenCast.Session", "Stop", NULL, NULL);
        return 0;
    }
    /* Mutter makes its virtual devices with their first event and the seat gains
     * the capability only then, so that event reaches no client: spend the
     * keyboard's on KEY_RESERVED (0), which no keymap maps, and the pointer's on
     * a move to the monitor's corner. */
    session_call("NotifyKeyboardKeycode", g_variant_new("(ub)", 0u, TRUE), NULL);
    session_call("NotifyKeyboardKeycode", g_variant_new("(ub)", 0u, FALSE), NULL);
    session_call("NotifyPointerMotionAbsolute", g_variant_new("(sdd)", stream, 0.0, 0.0), NULL);
    printf("ready %u\n", node);
    fflush(stdout);

    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        const char *method = NULL;
        GVariant *arguments = arguments_for(line, &method);
        if (!arguments) {
            printf("error unknown command: %s", line);
        } else if (session_call(method, arguments, &error)) {
            printf("ok\n");
        } else {
            printf("error %s: %s\n", method, error->message);
            g_clear_error(&error);
        }
        fflush(stdout);
    }
    session_call("Stop", NULL, NULL);
    return 0;
}
