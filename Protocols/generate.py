#!/usr/bin/env python3
"""Generates Strata's typed Swift bindings from Wayland protocol XML.

Reads Protocols/manifest.txt, writes Sources/WaylandClient/Generated/. Only facts
are taken from the XML (names, versions, opcodes, argument types); none of the
protocols' descriptions are copied. Also writes the server glue of the test
kit's protocol harness (Sources/StrataTestingTools/Protocols/): wayland-scanner's
output with its comments (the protocols' descriptions) left out.

    python3 Protocols/generate.py            # regenerate
    python3 Protocols/generate.py --check    # exit 1 if the committed output is stale
"""
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "WaylandClient", "Generated")
# Protocols only the testing kit speaks (kwin's fake input, an input method for
# text-input tests, wlroots' list of other clients' windows): generated into StrataTesting, over WaylandClient's
# `@_spi(Bindings)` interface, with an interface table of their own.
TESTING_PROTOCOLS = {"input-method-unstable-v2", "fake-input", "wlr-foreign-toplevel-management-unstable-v1", "wlr-virtual-pointer-unstable-v1", "virtual-keyboard-unstable-v1"}
TESTING_OUT = os.path.join(ROOT, "Sources", "StrataTesting", "Generated")

SWIFT_KEYWORDS = {
    "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "let", "operator",
    "protocol", "static", "struct", "subscript", "typealias", "var", "break", "case", "continue",
    "default", "defer", "do", "else", "for", "guard", "if", "in", "repeat", "return", "switch",
    "where", "while", "as", "is", "nil", "self", "Self", "super", "throw", "throws", "true", "false",
    "try", "internal", "public", "private", "fileprivate", "open", "Type",
}


def read_manifest():
    entries = []
    with open(os.path.join(ROOT, "Protocols", "manifest.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            entries.append((parts[0], parts[1]))
    return entries


def camel(name, upper):
    parts = [p for p in name.split("_") if p]
    s = "".join(p[:1].upper() + p[1:] for p in parts)
    if not upper:
        s = s[:1].lower() + s[1:]
    return s


def type_name(interface):
    return camel(interface, True)


def ident(name):
    s = camel(name, False)
    if s[:1].isdigit():
        s = "_" + s
    return "`%s`" % s if s in SWIFT_KEYWORDS else s


def enum_case(name):
    s = camel(name, False)
    if s[:1].isdigit():
        s = "_" + s
    return "`%s`" % s if s in SWIFT_KEYWORDS else s


def enum_type(ref, current):
    if "." in ref:
        iface, enum = ref.split(".", 1)
        return "%s.%s" % (type_name(iface), camel(enum, True))
    return "%s.%s" % (type_name(current), camel(ref, True))


class Arg:
    def __init__(self, el):
        self.name = el.get("name")
        self.type = el.get("type")
        self.interface = el.get("interface")
        self.nullable = el.get("allow-null") == "true"
        self.enum = el.get("enum")


class Message:
    def __init__(self, el):
        self.name = el.get("name")
        self.since = int(el.get("since", "1"))
        self.destructor = el.get("type") == "destructor"
        self.args = [Arg(a) for a in el.findall("arg")]

    def signature(self):
        chars = {"int": "i", "uint": "u", "fixed": "f", "string": "s", "object": "o",
                 "new_id": "n", "array": "a", "fd": "h"}
        s = str(self.since) if self.since > 1 else ""
        for a in self.args:
            if a.type == "new_id" and a.interface is None:
                s += "su"
            if a.nullable:
                s += "?"
            s += chars[a.type]
        return s

    def types(self):
        t = []
        for a in self.args:
            if a.type == "new_id" and a.interface is None:
                t += [None, None]
            t.append(a.interface if a.type in ("object", "new_id") else None)
        return t


class Interface:
    def __init__(self, el, protocol):
        self.name = el.get("name")
        self.version = int(el.get("version"))
        self.protocol = protocol
        self.requests = [Message(m) for m in el.findall("request")]
        self.events = [Message(m) for m in el.findall("event")]
        self.enums = []
        for e in el.findall("enum"):
            entries = [(x.get("name"), x.get("value")) for x in e.findall("entry")]
            self.enums.append((e.get("name"), e.get("bitfield") == "true", entries))


def swift_value_type(arg, iface):
    if arg.type == "int":
        return "Int32"
    if arg.type == "uint":
        return enum_type(arg.enum, iface) if arg.enum else "UInt32"
    if arg.type == "fixed":
        return "Double"
    if arg.type == "string":
        return "String"
    if arg.type == "array":
        return "[UInt8]"
    if arg.type == "fd":
        return "Int32"
    if arg.type in ("object", "new_id"):
        return type_name(arg.interface) if arg.interface else "WaylandProxy"
    raise ValueError(arg.type)


def gen_request(iface, index, req, out):
    params = []
    new_id = None
    for a in req.args:
        if a.type == "new_id":
            new_id = a
            continue
        t = swift_value_type(a, iface.name)
        if a.nullable:
            t += "?"
        params.append("%s: %s" % (ident(a.name), t))
    generic = new_id is not None and new_id.interface is None
    if generic:
        params = ["%s: UInt32" % ident(req.args[0].name), "_ type: T.Type", "version: UInt32"]
    fname = ident(req.name)
    ret = ""
    if new_id is not None:
        ret = " -> T" if generic else " -> %s" % type_name(new_id.interface)
    gen = "<T: WaylandProxy>" if generic else ""
    out.append("")
    out.append("    /// Request `%s.%s` (opcode %d%s)." % (
        iface.name, req.name, index, ", since version %d" % req.since if req.since > 1 else ""))
    if req.destructor:
        out.append("    /// Destroys the object: it must not be used afterwards.")
    out.append("    %s func %s%s(%s)%s {" % ("public", fname, gen, ", ".join(params), ret))
    n = len(req.signature().lstrip("0123456789").replace("?", ""))
    out.append("        var args = [wl_argument](repeating: wl_argument(), count: %d)" % max(n, 1))
    i = 0
    if generic:
        out.append("        args[0].u = %s" % ident(req.args[0].name))
        out.append("        args[1].s = T.interfacePointer.pointee.name")
        out.append("        args[2].u = version")
        out.append("        args[3].n = 0")
        out.append("        let created = marshalConstructor(opcode: %d, args: &args, interface: T.interfacePointer, version: version)" % index)
        out.append("        return T(adopting: created, version: version, owner: owner)")
        out.append("    }")
        return
    strings = []
    arrays = []
    for a in req.args:
        name = ident(a.name)
        if a.type == "int":
            out.append("        args[%d].i = %s" % (i, name))
        elif a.type == "uint":
            out.append("        args[%d].u = %s%s" % (i, name, ".rawValue" if a.enum else ""))
        elif a.type == "fixed":
            out.append("        args[%d].f = wl_fixed_t(clamping: Int64((%s * 256).rounded()))" % (i, name))
        elif a.type == "fd":
            out.append("        args[%d].h = %s" % (i, name))
        elif a.type == "object":
            out.append("        args[%d].o = %s%s.wlObject" % (i, name, "?" if a.nullable else ""))
        elif a.type == "new_id":
            out.append("        args[%d].n = 0" % i)
        elif a.type == "string":
            strings.append((i, name, a.nullable))
        elif a.type == "array":
            arrays.append((i, name))
        i += 1
    call_args = "opcode: %d, args: &args" % index
    body_indent = "        "
    closers = []
    for (idx, name, nullable) in strings:
        if nullable:
            out.append(body_indent + "let c%d = %s.map { strdup($0) } ?? nil" % (idx, name))
        else:
            out.append(body_indent + "let c%d = strdup(%s)" % (idx, name))
        out.append(body_indent + "defer { free(c%d) }" % idx)
        out.append(body_indent + "args[%d].s = UnsafePointer(c%d)" % (idx, idx))
    for (idx, name) in arrays:
        out.append(body_indent + "var a%d = WaylandArray(%s)" % (idx, name))
        out.append(body_indent + "defer { a%d.release() }" % idx)
        out.append(body_indent + "args[%d].a = a%d.pointer" % (idx, idx))
    if new_id is not None:
        out.append(body_indent + "let created = marshalConstructor(%s, interface: %s.interfacePointer, version: version)" % (
            call_args, type_name(new_id.interface)))
        out.append(body_indent + "return %s(adopting: created, version: version, owner: owner)" % type_name(new_id.interface))
    else:
        out.append(body_indent + "marshal(%s, since: %d, destroying: %s)" % (call_args, req.since, "true" if req.destructor else "false"))
    out.append("    }")


def gen_event_decode(iface, index, ev):
    parts = []
    for i, a in enumerate(ev.args):
        label = ident(a.name)
        if a.type == "int":
            v = "args[%d].i" % i
        elif a.type == "uint":
            v = "%s(rawValue: args[%d].u)" % (enum_type(a.enum, iface.name), i) if a.enum else "args[%d].u" % i
        elif a.type == "fixed":
            v = "Double(args[%d].f) / 256" % i
        elif a.type == "string":
            v = "args[%d].s.map { String(cString: $0) }" % i
            if not a.nullable:
                v += ' ?? ""'
        elif a.type == "array":
            v = "WaylandArray.bytes(args[%d].a)" % i
        elif a.type == "fd":
            v = "args[%d].h" % i
        elif a.type == "object":
            v = "WaylandProxy.existing(args[%d].o, as: %s.self)" % (i, type_name(a.interface) if a.interface else "WaylandProxy")
        elif a.type == "new_id":
            v = "%s(adopting: args[%d].o!, version: version, owner: owner)" % (type_name(a.interface), i)
        parts.append("%s: %s" % (label, v))
    case = ident(ev.name)
    if parts:
        return ".%s(%s)" % (case, ", ".join(parts))
    return ".%s" % case


def gen_interface(iface, out, testing=False):
    t = type_name(iface.name)
    out.append("")
    out.append("/// `%s` (protocol `%s`, version %d)." % (iface.name, iface.protocol, iface.version))
    out.append("@MainActor")
    out.append("public final class %s: WaylandProxy {" % t)
    out.append("    public override class var interfaceName: String { \"%s\" }" % iface.name)
    out.append("    public override class var interfaceVersion: UInt32 { %d }" % iface.version)
    if testing:
        out.append("    public override class var interfacePointer: UnsafePointer<wl_interface> { TestingInterfaceTable.pointer(named: interfaceName) }")
    for (ename, bitfield, entries) in iface.enums:
        en = camel(ename, True)
        out.append("")
        out.append("    /// Enum `%s.%s`%s." % (iface.name, ename, " (bitfield)" if bitfield else ""))
        proto = "OptionSet, Hashable, Sendable" if bitfield else "RawRepresentable, Hashable, Sendable"
        out.append("    public struct %s: %s {" % (en, proto))
        out.append("        public let rawValue: UInt32")
        out.append("        public init(rawValue: UInt32) { self.rawValue = rawValue }")
        for (name, value) in entries:
            if bitfield and int(value, 0) == 0:
                out.append("        public static let %s: %s = []" % (enum_case(name), en))
            else:
                out.append("        public static let %s = %s(rawValue: %s)" % (enum_case(name), en, value))
        out.append("    }")
    for i, r in enumerate(iface.requests):
        gen_request(iface, i, r, out)
    if iface.events:
        out.append("")
        out.append("    /// The events of `%s`." % iface.name)
        out.append("    public enum Event {")
        for e in iface.events:
            params = []
            for a in e.args:
                ty = swift_value_type(a, iface.name)
                if a.type == "object" or (a.type == "string" and a.nullable):
                    ty += "?"
                params.append("%s: %s" % (ident(a.name), ty))
            if params:
                out.append("        case %s(%s)" % (ident(e.name), ", ".join(params)))
            else:
                out.append("        case %s" % ident(e.name))
        out.append("    }")
        out.append("")
        out.append("    /// Receives every event of this object, in order, on the main thread.")
        out.append("    public var onEvent: ((Event) -> Void)?")
        out.append("")
        out.append("    @_spi(Bindings) public override func dispatch(opcode: UInt32, args: UnsafeMutablePointer<wl_argument>) {")
        out.append("        let event: Event")
        out.append("        switch opcode {")
        for i, e in enumerate(iface.events):
            out.append("        case %d: event = %s" % (i, gen_event_decode(iface, i, e)))
        out.append("        default: return")
        out.append("        }")
        out.append("        onEvent?(event)")
        out.append("    }")
    out.append("}")


def gen_table(interfaces, testing=False):
    if testing:
        out = [HEADER, "import CWayland", "@_spi(Bindings) import WaylandClient", ""]
        out.append("/// Message tables of the testing kit's interfaces, as libwayland needs them")
        out.append("/// (the interfaces they name from other protocols come from WaylandClient's).")
        out.append("@MainActor")
        out.append("enum TestingInterfaceTable {")
        out.append("    static let pointers = InterfaceTable.build(descriptions)")
        out.append("")
        out.append("    static func pointer(named name: String) -> UnsafePointer<wl_interface> {")
        out.append('        guard let p = pointers[name] else { fatalError("no interface table for \\(name): regenerate the bindings") }')
        out.append("        return p")
        out.append("    }")
        out.append("")
        out.append("    static let descriptions: [InterfaceDescription] = [")
        indent = "    "
    else:
        out = [HEADER, "import CWayland", ""]
        out.append("/// Message tables of every bound interface, as libwayland needs them.")
        out.append("let generatedInterfaceTable: [InterfaceDescription] = [")
        indent = ""
    for iface in interfaces:
        def msgs(ms):
            items = []
            for m in ms:
                types = ", ".join('"%s"' % x if x else "nil" for x in m.types())
                items.append('.init(name: "%s", signature: "%s", types: [%s])' % (m.name, m.signature(), types))
            return "[" + ", ".join(items) + "]"
        out.append(indent + '    InterfaceDescription(name: "%s", version: %d,' % (iface.name, iface.version))
        out.append(indent + "        requests: %s," % msgs(iface.requests))
        out.append(indent + "        events: %s)," % msgs(iface.events))
    out.append(indent + "]")
    if testing:
        out.append("}")
    return "\n".join(out) + "\n"


# The protocols the harness serves: (XML, output stem).
SERVER_GLUE = [
    ("/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml", "xdg-shell"),
    ("Protocols/cursor-shape-v1.xml", "cursor-shape-v1"),
    ("Protocols/ext-image-copy-capture-v1.xml", "ext-image-copy-capture-v1"),
    ("/usr/share/wayland-protocols/staging/ext-session-lock/ext-session-lock-v1.xml", "ext-session-lock-v1"),
    ("Protocols/wlr-layer-shell-unstable-v1.xml", "wlr-layer-shell-unstable-v1"),
]
GLUE_OUT = os.path.join(ROOT, "Sources", "StrataTestingTools", "Protocols")


def server_glue():
    """wayland-scanner's server header and interface tables, comments removed."""
    files = {}
    for xml, stem in SERVER_GLUE:
        path = xml if os.path.isabs(xml) else os.path.join(ROOT, xml)
        for mode, name in (("server-header", "%s-server-protocol.h" % stem), ("private-code", "%s-protocol.c" % stem)):
            text = subprocess.run(["wayland-scanner", mode, path, "/dev/stdout"], check=True, capture_output=True, text=True).stdout
            text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            text = re.sub(r"[ \t]+\n", "\n", text)
            text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
            files[name] = "/* Generated by Protocols/generate.py (wayland-scanner %s, comments left out). Do not edit. */\n%s" % (mode, text)
    return files


def write(out, files, check, what):
    """Writes `files` into `out` (or, with check, says which are stale); the names that differ."""
    stale = []
    for name, text in sorted(files.items()):
        path = os.path.join(out, name)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:
            stale.append(name)
            if not check:
                os.makedirs(out, exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
    existing = set(os.listdir(out)) if os.path.isdir(out) else set()
    extra = existing - set(files)
    if check:
        if stale or extra:
            print("%s are stale: %s; run python3 Protocols/generate.py" % (what, ", ".join(sorted(stale + list(extra)))))
        else:
            print("%s are current (%d files)" % (what, len(files)))
    else:
        for name in extra:
            os.remove(os.path.join(out, name))
        print("%s: wrote %d files, %d changed" % (what, len(files), len(stale)))
    return stale + list(extra)


HEADER = "// Generated by Protocols/generate.py from the protocol XML named in Protocols/manifest.txt.\n// Do not edit: regenerate."


def main():
    check = "--check" in sys.argv
    files, testing_files = {}, {}
    interfaces, testing_interfaces = [], []
    for proto, path in read_manifest():
        root = ET.parse(path if os.path.isabs(path) else os.path.join(ROOT, path)).getroot()
        ifaces = [Interface(el, root.get("name")) for el in root.findall("interface")]
        testing = proto in TESTING_PROTOCOLS
        (testing_interfaces if testing else interfaces).extend(ifaces)
        out = [HEADER, "import CWayland", "import Glibc"]
        if testing:
            out.append("@_spi(Bindings) import WaylandClient")
        for iface in ifaces:
            if iface.name == "wl_display":
                continue  # the display is the connection itself (Connection.swift)
            gen_interface(iface, out, testing)
        (testing_files if testing else files)["%s.swift" % camel(proto.replace("-", "_"), True)] = "\n".join(out) + "\n"
    files["InterfaceTable.swift"] = gen_table(interfaces)
    testing_files["TestingInterfaceTable.swift"] = gen_table(testing_interfaces, testing=True)
    stale = write(OUT, files, check, "generated bindings")
    stale += write(TESTING_OUT, testing_files, check, "generated bindings of the testing kit")
    stale += write(GLUE_OUT, server_glue(), check, "server glue files of the harness")
    if check and stale:
        sys.exit(1)


if __name__ == "__main__":
    main()
