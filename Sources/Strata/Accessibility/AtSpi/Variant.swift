import CGio

/// Small GVariant makers and readers for the AT-SPI calls (GLib's variadic
/// `g_variant_new` cannot be called from Swift).
enum Variant {
    /// A GVariant this code holds a reference to, released with it.
    final class Owned: @unchecked Sendable {
        let raw: OpaquePointer
        init(_ raw: OpaquePointer) { self.raw = raw }
        deinit { g_variant_unref(raw) }

        /// The `index`th child.
        subscript(index: Int) -> Owned { Owned(g_variant_get_child_value(raw, gsize(index))) }
        var int32: Int32 { g_variant_get_int32(raw) }
        var uint32: UInt32 { g_variant_get_uint32(raw) }
        var bool: Bool { g_variant_get_boolean(raw) != 0 }
        var double: Double { g_variant_get_double(raw) }
        var string: String { String(cString: g_variant_get_string(raw, nil)) }
        /// The value inside a `v`.
        var unboxed: Owned { Owned(g_variant_get_variant(raw)) }
    }

    /// The string child `index` of a tuple.
    static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    static func tuple(_ items: [OpaquePointer]) -> OpaquePointer {
        var values: [OpaquePointer?] = items
        return g_variant_new_tuple(&values, gsize(values.count))
    }

    /// An object reference `(so)`.
    static func reference(_ bus: String, _ path: String) -> OpaquePointer {
        tuple([g_variant_new_string(bus), g_variant_new_object_path(path)])
    }

    /// An array of `elementType` values (which may be empty).
    static func array(_ elementType: StaticString, _ items: [OpaquePointer]) -> OpaquePointer {
        var values: [OpaquePointer?] = items
        return g_variant_new_array(variantType(elementType), &values, gsize(values.count))
    }

    static func emptyArray(_ type: StaticString) -> OpaquePointer {
        g_variant_new_array(g_variant_type_element(variantType(type)), nil, 0)
    }

    static func emptyDictionary(_ type: StaticString) -> OpaquePointer { emptyArray(type) }

    /// `a{ss}` from pairs.
    static func stringDictionary(_ pairs: [(String, String)]) -> OpaquePointer {
        array("{ss}", pairs.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_string($0.1)) })
    }

    static func strings(_ items: [String]) -> OpaquePointer { array("s", items.map { g_variant_new_string($0) }) }
    static func int(_ value: Int) -> OpaquePointer { g_variant_new_int32(Int32(clamping: value)) }
    static func bool(_ value: Bool) -> OpaquePointer { g_variant_new_boolean(value ? 1 : 0) }
}
