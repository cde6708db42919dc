import CGio

/// The AT-SPI interfaces' methods and properties, answered from the views on
/// the main actor (rules Y1–Y4).
extension AtSpiExporter {
    // MARK: Properties

    func handleProperties(_ call: Call, _ target: Target) {
        let interface = call.parameters[0].string
        switch call.method {
        case "Get":
            let name = call.parameters[1].string
            guard let value = property(interface, name, of: target) else {
                return call.fail("org.freedesktop.DBus.Error.UnknownProperty", "no \(interface).\(name) here")
            }
            call.reply([g_variant_new_variant(value)])
        case "GetAll":
            let names: [String] = switch interface {
            case AtSpiInterfaces.accessible: ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId"]
            case AtSpiInterfaces.application: ["ToolkitName", "Version", "AtspiVersion", "Id"]
            case AtSpiInterfaces.action: ["NActions"]
            case AtSpiInterfaces.value: ["MinimumValue", "MaximumValue", "MinimumIncrement", "CurrentValue", "Text"]
            case AtSpiInterfaces.text: ["CharacterCount", "CaretOffset"]
            case AtSpiInterfaces.selection: ["NSelectedChildren"]
            default: []
            }
            let entries = names.compactMap { name -> OpaquePointer? in
                guard let value = property(interface, name, of: target) else { return nil }
                return g_variant_new_dict_entry(g_variant_new_string(name), g_variant_new_variant(value))
            }
            call.reply([Variant.array("{sv}", entries)])
        case "Set":
            let name = call.parameters[1].string, value = call.parameters[2].unboxed
            switch (interface, name, target) {
            case (AtSpiInterfaces.application, "Id", .application):
                applicationID = value.int32
                call.reply([])
            case let (AtSpiInterfaces.value, "CurrentValue", .node(node)):
                guard setValue(value.double, of: node) else { return call.fail("org.freedesktop.DBus.Error.AccessDenied", "not adjustable, or not enabled") }
                call.reply([])
            default:
                call.fail("org.freedesktop.DBus.Error.PropertyReadOnly", "\(interface).\(name) cannot be set")
            }
        default:
            call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    /// A property's value (floating), or nil when the target has no such property.
    private func property(_ interface: String, _ name: String, of target: Target) -> OpaquePointer? {
        switch (interface, target) {
        case (AtSpiInterfaces.application, .application):
            switch name {
            case "ToolkitName": return g_variant_new_string("Strata")
            case "Version": return g_variant_new_string("0.1")
            case "AtspiVersion": return g_variant_new_string("2.1")
            case "Id": return g_variant_new_int32(applicationID)
            default: return nil
            }
        case (AtSpiInterfaces.accessible, .application):
            switch name {
            case "Name": return g_variant_new_string(applicationName)
            case "Description", "Locale", "AccessibleId": return g_variant_new_string("")
            case "Parent": return Variant.reference(registryRoot.bus, registryRoot.path)
            case "ChildCount": return Variant.int(windows.count)
            default: return nil
            }
        case let (AtSpiInterfaces.accessible, .node(node)):
            switch name {
            case "Name": return g_variant_new_string(node.name)
            case "Description": return g_variant_new_string(node.hint)
            case "Parent": return reference(node.parent)
            case "ChildCount": return Variant.int(childCount(of: node))
            case "Locale": return g_variant_new_string(node.language ?? "")
            case "AccessibleId": return g_variant_new_string(node.identifier ?? "")
            default: return nil
            }
        case let (AtSpiInterfaces.action, .node(node)) where name == "NActions":
            return Variant.int(node.actionNames.count)
        case let (AtSpiInterfaces.value, .node(node)):
            guard let value = node.numericValue else { return nil }
            switch name {
            case "MinimumValue": return g_variant_new_double(value.minimum)
            case "MaximumValue": return g_variant_new_double(value.maximum)
            case "MinimumIncrement": return g_variant_new_double(value.step)
            case "CurrentValue": return g_variant_new_double(value.current)
            case "Text": return g_variant_new_string(node.value ?? "")
            default: return nil
            }
        case let (AtSpiInterfaces.selection, .node(node)) where name == "NSelectedChildren":
            return node.rows.map { Variant.int($0.selectedRows.count) }
        case let (AtSpiInterfaces.text, .node(node)):
            guard let text = node.text else { return nil }
            switch name {
            case "CharacterCount": return Variant.int(text.unicodeScalars.count)
            case "CaretOffset": return Variant.int(node.textSelection?.upperBound ?? -1)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Sets an adjustable element's value as the person's input would (rule Y4):
    /// a slider and a stepper take it, held to their range.
    private func setValue(_ value: Double, of node: AccessibilityNode) -> Bool {
        guard case let .view(v) = node, node.isAttached, !node.traits.contains(.notEnabled), value.isFinite else { return false }
        return v.accessibilitySetValue(value)
    }

    // MARK: Methods

    func handleMethod(_ call: Call, _ target: Target) {
        switch (call.interface, target) {
        case (AtSpiInterfaces.accessible, .defunct):
            // GetState of a node that went away.
            let (low, high) = AtSpiMapping.words([.defunct])
            call.reply([Variant.array("u", [g_variant_new_uint32(low), g_variant_new_uint32(high)])])
        case (AtSpiInterfaces.accessible, .application): applicationMethod(call)
        case (AtSpiInterfaces.application, .application) where call.method == "GetLocale":
            call.reply([g_variant_new_string(Application.messagesLocale ?? "C")])
        case let (AtSpiInterfaces.accessible, .node(node)): accessibleMethod(call, node)
        case let (AtSpiInterfaces.component, .node(node)): componentMethod(call, node)
        case let (AtSpiInterfaces.action, .node(node)): actionMethod(call, node)
        case let (AtSpiInterfaces.text, .node(node)) where node.text != nil: textMethod(call, node)
        case let (AtSpiInterfaces.editableText, .node(node)) where [.textField, .passwordField].contains(node.role): editableTextMethod(call, node)
        case let (AtSpiInterfaces.selection, .node(node)) where node.rows != nil: selectionMethod(call, node)
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", "\(call.interface).\(call.method) is not offered by \(call.path)")
        }
    }

    private func applicationMethod(_ call: Call) {
        switch call.method {
        case "GetChildAtIndex":
            let i = Int(call.parameters[0].int32)
            call.reply([windows.indices.contains(i) ? reference(.window(windows[i])) : Variant.reference("", AtSpiInterfaces.nullPath)])
        case "GetChildren": call.reply([Variant.array("(so)", windows.map { reference(.window($0)) })])
        case "GetIndexInParent": call.reply([Variant.int(-1)])
        case "GetRelationSet": call.reply([Variant.emptyArray("a(ua(so))")])
        case "GetRole": call.reply([g_variant_new_uint32(AtSpiMapping.role(.application).number)])
        case "GetRoleName", "GetLocalizedRoleName": call.reply([g_variant_new_string(AtSpiMapping.role(.application).name)])
        case "GetState": call.reply([Variant.array("u", [g_variant_new_uint32(0), g_variant_new_uint32(0)])])
        case "GetAttributes": call.reply([Variant.stringDictionary([("toolkit", "Strata")])])
        case "GetApplication": call.reply([reference(nil)])
        case "GetInterfaces": call.reply([Variant.strings([AtSpiInterfaces.accessible, AtSpiInterfaces.application])])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    private func accessibleMethod(_ call: Call, _ node: AccessibilityNode) {
        switch call.method {
        case "GetChildAtIndex":
            let child = child(of: node, at: Int(call.parameters[0].int32))
            call.reply([child.map { reference($0) } ?? Variant.reference("", AtSpiInterfaces.nullPath)])
        case "GetChildren": call.reply([Variant.array("(so)", children(of: node).map { reference($0) })])
        case "GetIndexInParent": call.reply([Variant.int(indexInParent(node))])
        case "GetRelationSet":
            let relations = node.relations.map { relation in
                Variant.tuple([g_variant_new_uint32(relation.type), Variant.array("(so)", relation.targets.map { reference($0) })])
            }
            call.reply([relations.isEmpty ? Variant.emptyArray("a(ua(so))") : Variant.array("(ua(so))", relations)])
        case "GetRole": call.reply([g_variant_new_uint32(AtSpiMapping.role(node.role).number)])
        case "GetRoleName", "GetLocalizedRoleName": call.reply([g_variant_new_string(AtSpiMapping.role(node.role).name)])
        case "GetState":
            let states = node.states
            knownStates[id(of: node.object)] = states
            let (low, high) = AtSpiMapping.words(states)
            call.reply([Variant.array("u", [g_variant_new_uint32(low), g_variant_new_uint32(high)])])
        case "GetAttributes":
            var attributes = [("toolkit", "Strata")]
            if let id = node.identifier { attributes.append(("id", id)) }
            if let value = node.value, node.numericValue == nil, node.text == nil { attributes.append(("value", value)) }
            call.reply([Variant.stringDictionary(attributes)])
        case "GetApplication": call.reply([reference(nil)])
        case "GetInterfaces": call.reply([Variant.strings(interfaces(of: node))])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    /// The interfaces a node offers.
    func interfaces(of node: AccessibilityNode) -> [String] {
        var names = [AtSpiInterfaces.accessible, AtSpiInterfaces.component]
        if !node.actionNames.isEmpty { names.append(AtSpiInterfaces.action) }
        if node.numericValue != nil { names.append(AtSpiInterfaces.value) }
        if node.text != nil { names.append(AtSpiInterfaces.text) }
        if [.textField, .passwordField].contains(node.role) { names.append(AtSpiInterfaces.editableText) }
        if node.rows != nil { names.append(AtSpiInterfaces.selection) }
        return names
    }

    // MARK: Component (extents in window coordinates, rule Y3)

    private func componentMethod(_ call: Call, _ node: AccessibilityNode) {
        func extents(_ coordinates: UInt32) -> Rect {
            var frame = node.frame
            if coordinates == AtSpiMapping.parentCoordinates, let parent = node.parent {
                frame.origin.x -= parent.frame.minX
                frame.origin.y -= parent.frame.minY
            }
            return frame
        }
        func ints(_ r: Rect) -> [OpaquePointer] {
            [r.minX, r.minY, r.width, r.height].map { Variant.int(Int($0.rounded())) }
        }
        switch call.method {
        case "GetExtents": call.reply([Variant.tuple(ints(extents(call.parameters[0].uint32)))])
        case "GetPosition": call.reply(Array(ints(extents(call.parameters[0].uint32)).prefix(2)))
        case "GetSize": call.reply(Array(ints(node.frame).suffix(2)))
        case "Contains":
            let point = Point(x: Double(call.parameters[0].int32), y: Double(call.parameters[1].int32))
            call.reply([Variant.bool(extents(call.parameters[2].uint32).contains(point))])
        case "GetAccessibleAtPoint":
            var point = Point(x: Double(call.parameters[0].int32), y: Double(call.parameters[1].int32))
            if call.parameters[2].uint32 == AtSpiMapping.parentCoordinates, let parent = node.parent {
                point.x += parent.frame.minX
                point.y += parent.frame.minY
            }
            call.reply([deepest(at: point, in: node).map { reference($0) } ?? Variant.reference("", AtSpiInterfaces.nullPath)])
        case "GetLayer": call.reply([g_variant_new_uint32(node.role == .window || node.role == .dialog ? 7 : 3)])   // window, widget
        case "GetMDIZOrder": call.reply([g_variant_new_int16(0)])
        case "GrabFocus": call.reply([Variant.bool(node.grabFocus())])
        case "GetAlpha":
            let alpha = if case let .view(v) = node { v.alpha } else { 1.0 }
            call.reply([g_variant_new_double(alpha)])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    /// The deepest node under `node` whose frame holds `point`.
    private func deepest(at point: Point, in node: AccessibilityNode) -> AccessibilityNode? {
        if let list = node.rows {
            return list.row(at: list.convert(point, from: nil)).map { .element(list.rowElement($0)) }
        }
        for child in children(of: node).reversed() where child.frame.contains(point) {
            return deepest(at: point, in: child) ?? child
        }
        return nil
    }

    // MARK: Action (rule Y4)

    private func actionMethod(_ call: Call, _ node: AccessibilityNode) {
        let names = node.actionNames
        func at(_ i: Int32) -> String { names.indices.contains(Int(i)) ? names[Int(i)] : "" }
        switch call.method {
        case "GetName", "GetLocalizedName": call.reply([g_variant_new_string(at(call.parameters[0].int32))])
        case "GetDescription": call.reply([g_variant_new_string(node.hint)])
        case "GetKeyBinding": call.reply([g_variant_new_string("")])
        case "GetActions":
            call.reply([Variant.array("(sss)", names.map { Variant.tuple([g_variant_new_string($0), g_variant_new_string($0), g_variant_new_string("")]) })])
        case "DoAction": call.reply([Variant.bool(node.performAction(at: Int(call.parameters[0].int32)))])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    // MARK: Selection (a list's rows)

    /// A list's selection, changed as the person's taps would change it (rule Y4).
    private func selectionMethod(_ call: Call, _ node: AccessibilityNode) {
        guard let list = node.rows else { return call.fail("org.freedesktop.DBus.Error.UnknownMethod", "not a list") }
        let selected = list.selectedRows
        func index() -> Int { Int(call.parameters[0].int32) }
        func isRow(_ i: Int) -> Bool { (0..<list.numberOfRows).contains(i) }
        switch call.method {
        case "GetSelectedChild":
            let i = index()
            call.reply([selected.indices.contains(i) ? reference(.element(list.rowElement(selected[i]))) : Variant.reference("", AtSpiInterfaces.nullPath)])
        case "IsChildSelected": call.reply([Variant.bool(selected.contains(index()))])
        case "SelectChild":
            guard isRow(index()), list.allowsSelection else { return call.reply([Variant.bool(false)]) }
            if !selected.contains(index()) { list.didTap(row: index()) }
            call.reply([Variant.bool(true)])
        case "DeselectChild", "DeselectSelectedChild":
            let row = call.method == "DeselectChild" ? index() : (selected.indices.contains(index()) ? selected[index()] : -1)
            guard selected.contains(row) else { return call.reply([Variant.bool(false)]) }
            list.didUntap(row: row)
            call.reply([Variant.bool(true)])
        case "SelectAll":
            guard list.allowsMultipleSelection else { return call.reply([Variant.bool(false)]) }
            for row in 0..<list.numberOfRows where !list.selectedRows.contains(row) { list.didTap(row: row) }
            call.reply([Variant.bool(true)])
        case "ClearSelection":
            for row in selected { list.didUntap(row: row) }
            call.reply([Variant.bool(true)])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    // MARK: Text and EditableText

    private func textMethod(_ call: Call, _ node: AccessibilityNode) {
        let text = node.text ?? ""
        let scalars = Array(text.unicodeScalars)
        func clamp(_ i: Int32) -> Int { min(max(0, Int(i)), scalars.count) }
        func substring(_ a: Int, _ b: Int) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[min(a, b)..<max(a, b)])
            return String(s)
        }
        switch call.method {
        case "GetText":
            let start = clamp(call.parameters[0].int32)
            let end = call.parameters[1].int32 < 0 ? scalars.count : clamp(call.parameters[1].int32)
            call.reply([g_variant_new_string(substring(start, end))])
        case "GetCharacterAtOffset":
            let i = Int(call.parameters[0].int32)
            call.reply([Variant.int(scalars.indices.contains(i) ? Int(scalars[i].value) : 0)])
        case "GetStringAtOffset", "GetTextAtOffset", "GetTextBeforeOffset", "GetTextAfterOffset":
            // The older calls name a boundary (0 char, 1–2 word, 3–4 sentence, 5–6 line) instead of a granularity.
            let kind = call.parameters[1].uint32
            let granularity: UInt32 = call.method == "GetStringAtOffset" ? kind : [0, 1, 1, 2, 2, 3, 3][Int(min(kind, 6))]
            var offset = clamp(call.parameters[0].int32)
            let here = node.textUnit(around: offset, granularity: granularity, in: scalars)
            if call.method == "GetTextBeforeOffset" { offset = here.lowerBound - 1 } else if call.method == "GetTextAfterOffset" { offset = here.upperBound }
            let range = offset < 0 || offset > scalars.count || (offset == scalars.count && call.method == "GetTextAfterOffset")
                ? offset..<offset : node.textUnit(around: min(max(0, offset), scalars.count), granularity: granularity, in: scalars)
            let bounded = min(max(0, range.lowerBound), scalars.count)..<min(max(0, range.upperBound), scalars.count)
            call.reply([g_variant_new_string(substring(bounded.lowerBound, bounded.upperBound)), Variant.int(bounded.lowerBound), Variant.int(bounded.upperBound)])
        case "SetCaretOffset":
            let i = clamp(call.parameters[0].int32)
            call.reply([Variant.bool(node.selectText(i..<i))])
        case "GetNSelections":
            call.reply([Variant.int(node.textSelection.map { $0.isEmpty ? 0 : 1 } ?? 0)])
        case "GetSelection":
            let s = node.textSelection.flatMap { $0.isEmpty ? nil : $0 }
            call.reply([Variant.int(s?.lowerBound ?? 0), Variant.int(s?.upperBound ?? 0)])
        case "AddSelection":
            call.reply([Variant.bool(node.selectText(clamp(call.parameters[0].int32)..<max(clamp(call.parameters[0].int32), clamp(call.parameters[1].int32))))])
        case "SetSelection":
            call.reply([Variant.bool(node.selectText(clamp(call.parameters[1].int32)..<max(clamp(call.parameters[1].int32), clamp(call.parameters[2].int32))))])
        case "RemoveSelection":
            let caret = node.textSelection?.upperBound ?? 0
            call.reply([Variant.bool(node.selectText(caret..<caret))])
        case "GetAttributes", "GetAttributeRun":
            call.reply([Variant.stringDictionary([]), Variant.int(0), Variant.int(scalars.count)])
        case "GetDefaultAttributes", "GetDefaultAttributeSet":
            call.reply([Variant.stringDictionary([])])
        case "GetCharacterExtents", "GetRangeExtents":
            let start = clamp(call.parameters[0].int32)
            let range = call.method == "GetCharacterExtents" ? start..<min(start + 1, scalars.count) : start..<max(start, clamp(call.parameters[1].int32))
            let coordinates = call.parameters[call.method == "GetCharacterExtents" ? 1 : 2].uint32
            var r = node.textExtents(range)
            if coordinates == AtSpiMapping.parentCoordinates, let parent = node.parent { r = r.offsetBy(dx: -parent.frame.minX, dy: -parent.frame.minY) }
            call.reply([r.minX, r.minY, r.width, r.height].map { Variant.int(Int($0.rounded())) })
        case "GetOffsetAtPoint":
            var point = Point(x: Double(call.parameters[0].int32), y: Double(call.parameters[1].int32))
            if call.parameters[2].uint32 == AtSpiMapping.parentCoordinates, let parent = node.parent { point = Point(x: point.x + parent.frame.minX, y: point.y + parent.frame.minY) }
            call.reply([Variant.int(node.textOffset(at: point) ?? -1)])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }

    /// The character, word or line (the whole text: one line) around `offset`
    /// (AT-SPI's granularities 0 char, 1 word, 2 sentence, 3 line, 4 paragraph).
    static func unit(around offset: Int, granularity: UInt32, in scalars: [Unicode.Scalar]) -> Range<Int> {
        switch granularity {
        case 0: return offset < scalars.count ? offset..<offset + 1 : offset..<offset
        case 1:
            func isWord(_ i: Int) -> Bool { scalars.indices.contains(i) && !scalars[i].properties.isWhitespace }
            var start = offset, end = offset
            while isWord(start - 1) { start -= 1 }
            while isWord(end) { end += 1 }
            return start..<end
        default: return 0..<scalars.count
        }
    }

    private func editableTextMethod(_ call: Call, _ node: AccessibilityNode) {
        let count = node.text?.unicodeScalars.count ?? 0
        switch call.method {
        case "SetTextContents": call.reply([Variant.bool(node.replaceText(0..<count, with: call.parameters[0].string))])
        case "InsertText":
            let at = min(max(0, Int(call.parameters[0].int32)), count)
            call.reply([Variant.bool(node.replaceText(at..<at, with: call.parameters[1].string))])
        case "DeleteText":
            let a = min(max(0, Int(call.parameters[0].int32)), count), b = min(max(0, Int(call.parameters[1].int32)), count)
            call.reply([Variant.bool(node.replaceText(min(a, b)..<max(a, b), with: ""))])
        default: call.fail("org.freedesktop.DBus.Error.UnknownMethod", call.method)
        }
    }
}
