#!/usr/bin/python3
# A small GTK 4 app for trying `strata-probe exec` on a client Strata did not
# write: a colour area (a click on it turns it blue) above a text entry that
# has the keyboard (typing a colour's name and Return paints the area with it).
import sys

import gi

gi.require_version("Gdk", "4.0")
gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

COLOURS = {"grey": "#808080", "blue": "#3366cc", "green": "#33cc66", "red": "#cc3333"}
CSS = "".join(f".{name} {{ background: {value}; }}\n" for name, value in COLOURS.items())


class Demo(Gtk.Application):
    def __init__(self):
        super().__init__(application_id="org.strata.ExecDemo")

    def do_activate(self):
        # A still caret, so the screen settles (`wait-still`).
        Gtk.Settings.get_default().set_property("gtk-cursor-blink", False)
        style = Gtk.CssProvider()
        style.load_from_data(CSS.encode())
        Gtk.StyleContext.add_provider_for_display(Gdk.Display.get_default(), style, Gtk.STYLE_PROVIDER_PRIORITY_APPLICATION)
        window = Gtk.ApplicationWindow(application=self, title="Exec demo")
        window.set_default_size(400, 300)
        box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
        self.area = Gtk.Box(vexpand=True, hexpand=True, css_classes=["grey"])
        click = Gtk.GestureClick()
        click.connect("released", lambda *_: (self.paint("blue"), self.entry.grab_focus()))
        self.area.add_controller(click)
        entry = self.entry = Gtk.Entry(placeholder_text="a colour, then Return")
        entry.connect("activate", lambda e: self.paint(e.get_text().strip()))
        box.append(self.area)
        box.append(entry)
        window.set_child(box)
        window.present()
        entry.grab_focus()
        # `--windows N`: N - 1 more windows, "Exec demo 2" and on (for tests of clients that map several).
        for n in range(2, self.windows + 1):
            Gtk.ApplicationWindow(application=self, title=f"Exec demo {n}", default_width=200, default_height=100).present()

    def paint(self, name):
        if name in COLOURS:
            self.area.set_css_classes([name])
            print("painted", name, flush=True)


# The app id also where there is no session bus to register it on (sway, weston, cage here).
GLib.set_prgname("org.strata.ExecDemo")
demo = Demo()
demo.windows = int(sys.argv[sys.argv.index("--windows") + 1]) if "--windows" in sys.argv else 1
sys.exit(demo.run(sys.argv[:1]))
