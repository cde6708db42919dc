#!/usr/bin/python3
# The same two windows as the a11y-walk scene, made with GTK 4: 1,000 labels
# on a grid and 30 controls (buttons, switches, scales, entries, labels). GTK
# exports them over AT-SPI itself; the benchmark walks them with the same
# client as Strata's, for a reference measured in the same run.
#
#   gtk4-a11y-reference.py SECONDS    runs that long, then quits
import sys

import gi
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk

GLib.set_prgname("org.strata.gtkreference")


def activate(app):
    labels = Gtk.ApplicationWindow(application=app, title="1000 labels", default_width=1280, default_height=720)
    grid = Gtk.Grid()
    for i in range(1000):
        grid.attach(Gtk.Label(label=str(i)), i % 40, i // 40, 1, 1)
    labels.set_child(grid)
    controls = Gtk.ApplicationWindow(application=app, title="30 controls", default_width=640, default_height=480)
    box = Gtk.Grid()
    for i in range(30):
        kind = i % 5
        if kind == 0:
            control = Gtk.Button(label="Button %d" % i)
        elif kind == 1:
            control = Gtk.Switch()
            control.update_property([Gtk.AccessibleProperty.LABEL], ["Switch %d" % i])
        elif kind == 2:
            control = Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 1, 0.1)
            control.update_property([Gtk.AccessibleProperty.LABEL], ["Slider %d" % i])
        elif kind == 3:
            control = Gtk.Entry(placeholder_text="Field %d" % i, text="Some text")
        else:
            control = Gtk.Label(label="Label %d" % i)
        box.attach(control, i % 3, i // 3, 1, 1)
    controls.set_child(box)
    labels.present()
    controls.present()
    GLib.timeout_add(int(float(sys.argv[1]) * 1000), app.quit)


app = Gtk.Application(application_id="org.strata.gtkreference")
app.connect("activate", activate)
app.run([])
