#!/usr/bin/python3
# An assistive technology for the tests: reads and operates one application
# through pyatspi (libatspi, as Orca and accerciser do) and prints what it
# finds as JSON, one object per line.
#
#   atspi-client.py APP tree                     the application's tree
#   atspi-client.py APP do NAME ACTION           performs an element's action
#   atspi-client.py APP set-value NAME VALUE     sets a Value's CurrentValue
#   atspi-client.py APP set-text NAME TEXT       EditableText.SetTextContents
#   atspi-client.py APP grab-focus NAME          Component.GrabFocus
#   atspi-client.py APP select NAME INDEX        Selection.SelectChild; then the selected children's names
#   atspi-client.py APP char-extents NAME OFFSET  a character's extents in window coordinates and
#                                                the offset Text finds at their middle
#   atspi-client.py APP listen SECONDS EVENT...  events of the app for a while
#   atspi-client.py APP walk TIMES               seconds to read the whole tree (name, role,
#                                                states, extents of every node), each time
#
# Elements are found by name, or by "role:ROLE NAME" (the first such).
import json
import os
import sys
import time

from gi.repository import Gio, GLib


def accessibility_bus(seconds=20):
    """The accessibility bus's address: asked of at-spi's bus launcher on the
    session bus, then checked by connecting to it. libatspi does the same when
    AT_SPI_BUS_ADDRESS is unset, but when a step fails it aborts the process
    (dbind's "Couldn't connect to accessibility bus", SIGTRAP) without saying
    which step and why. Here each failure is said on stderr, prefixed
    "atspi-client:", and the steps are tried again for a while."""
    flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
    deadline = time.monotonic() + seconds
    while True:
        step = "the session bus"
        try:
            session = Gio.DBusConnection.new_for_address_sync(os.environ["DBUS_SESSION_BUS_ADDRESS"], flags, None, None)
            step = "org.a11y.Bus.GetAddress"
            reply = session.call_sync("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", None,
                                      GLib.VariantType("(s)"), Gio.DBusCallFlags.NONE, 10000, None)
            session.close_sync(None)
            address = reply.unpack()[0]
            step = "the accessibility bus at " + address
            Gio.DBusConnection.new_for_address_sync(address, flags, None, None).close_sync(None)
            return address
        except (GLib.Error, KeyError) as error:
            print("atspi-client: %s: %s" % (step, getattr(error, "message", error)), file=sys.stderr, flush=True)
            if time.monotonic() > deadline:
                sys.exit("atspi-client: no accessibility bus within %d s" % seconds)
            time.sleep(0.25)


# libatspi reads this variable first when it connects (at the first call).
if not os.environ.get("AT_SPI_BUS_ADDRESS"):
    os.environ["AT_SPI_BUS_ADDRESS"] = accessibility_bus()

import pyatspi  # noqa: E402


def application(name, tries=50):
    for _ in range(tries):
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is not None and app.name == name:
                return app
        GLib.usleep(100000)
    sys.exit("no application called %r on the bus" % name)


def states(acc):
    return sorted(pyatspi.stateToString(s) if hasattr(pyatspi, "stateToString") else str(s)
                  for s in acc.getState().getStates())


def describe(acc):
    node = {"role": acc.getRoleName(), "name": acc.name, "states": states(acc)}
    interfaces = pyatspi.listInterfaces(acc)
    if "Component" in interfaces:
        box = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        node["extents"] = [box.x, box.y, box.width, box.height]
    if "Action" in interfaces:
        action = acc.queryAction()
        node["actions"] = [action.getName(i) for i in range(action.nActions)]
    if "Value" in interfaces:
        value = acc.queryValue()
        node["value"] = [value.minimumValue, value.currentValue, value.maximumValue]
    if "Text" in interfaces:
        text = acc.queryText()
        node["text"] = text.getText(0, -1)
        node["caret"] = text.caretOffset
    if acc.description:
        node["description"] = acc.description
    attributes = dict(a.split(":", 1) for a in acc.getAttributes() if ":" in a)
    if attributes:
        node["attributes"] = attributes
    locale = acc.get_object_locale() if hasattr(acc, "get_object_locale") else ""
    if locale:
        node["locale"] = locale
    relations = {}
    for relation in acc.getRelationSet():
        kind = relation.getRelationType().value_nick
        relations[kind] = [relation.getTarget(i).name for i in range(relation.getNTargets())]
    if relations:
        node["relations"] = relations
    # A child that went between counting and asking (an app still opening its
    # window, a row animating out) is left out, as a screen reader skips it.
    children = (acc.getChildAtIndex(i) for i in range(acc.childCount))
    node["children"] = [d for d in (describe_unless_gone(child) for child in children if child is not None) if d is not None]
    return node


def describe_unless_gone(acc):
    try:
        return describe(acc)
    except GLib.Error as error:
        if error.message.endswith(" is gone"):
            return None
        raise


def find(acc, wanted):
    role, _, name = wanted.partition(":")[2].partition(" ") if wanted.startswith("role:") else (None, None, wanted)
    if acc.name == name and (role is None or acc.getRoleName() == role):
        return acc
    for i in range(acc.childCount):
        found = find(acc.getChildAtIndex(i), wanted)
        if found is not None:
            return found
    return None


def element(app, wanted):
    found = find(app, wanted)
    if found is None:
        sys.exit("no element %r" % wanted)
    return found


def main():
    app = application(sys.argv[1])
    command, args = sys.argv[2], sys.argv[3:]
    if command == "tree":
        print(json.dumps(describe(app)))
    elif command == "do":
        action = element(app, args[0]).queryAction()
        names = [action.getName(i) for i in range(action.nActions)]
        print(json.dumps({"done": action.doAction(names.index(args[1])) if args[1] in names else False}))
    elif command == "set-value":
        element(app, args[0]).queryValue().currentValue = float(args[1])
        print(json.dumps({"done": True}))
    elif command == "set-text":
        print(json.dumps({"done": element(app, args[0]).queryEditableText().setTextContents(args[1])}))
    elif command == "select":
        selection = element(app, args[0]).querySelection()
        done = selection.selectChild(int(args[1]))
        chosen = [selection.getSelectedChild(i).name for i in range(selection.nSelectedChildren)]
        print(json.dumps({"done": done, "selected": chosen}))
    elif command == "char-extents":
        text = element(app, args[0]).queryText()
        x, y, width, height = text.getCharacterExtents(int(args[1]), pyatspi.WINDOW_COORDS)
        middle = text.getOffsetAtPoint(x + width // 2, y + height // 2, pyatspi.WINDOW_COORDS)
        print(json.dumps({"extents": [x, y, width, height], "offset": middle}))
    elif command == "text-at":
        # The unit (0 char, 1 word, 2 sentence, 3 line, 4 paragraph) around an offset, as Orca reads by lines.
        text = element(app, args[0]).queryText()
        string, start, end = text.getStringAtOffset(int(args[1]), int(args[2]))
        print(json.dumps({"text": string, "start": start, "end": end}))
    elif command == "grab-focus":
        print(json.dumps({"done": element(app, args[0]).queryComponent().grabFocus()}))
    elif command == "walk":
        import time
        seconds = []
        for _ in range(int(args[0])):
            start = time.monotonic()
            count = len(json.dumps(describe(app)))
            seconds.append(time.monotonic() - start)
        print(json.dumps({"seconds": seconds, "bytes": count}))
    elif command == "listen":
        def heard(event):
            if event.source is not None and event.host_application is not None and event.host_application.name == sys.argv[1]:
                print(json.dumps({"type": event.type, "source": event.source.name, "role": event.source.getRoleName(),
                                  "detail1": event.detail1, "data": event.any_data if isinstance(event.any_data, str) else None}),
                      flush=True)
        for kind in args[1:]:
            pyatspi.Registry.registerEventListener(heard, kind)
        print(json.dumps({"listening": True}), flush=True)
        GLib.timeout_add(int(float(args[0]) * 1000), lambda: pyatspi.Registry.stop())
        pyatspi.Registry.start()
    else:
        sys.exit("unknown command %r" % command)


main()
