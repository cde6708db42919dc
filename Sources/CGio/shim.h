#include <gio/gio.h>
// GSettings' backends: which one a process has (an app tells dconf from the in-memory default).
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>
#include <gio/gunixfdlist.h>
