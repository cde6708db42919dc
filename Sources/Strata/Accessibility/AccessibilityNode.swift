/// What kind of thing an exported node is (rule Y2): from the element's traits,
/// unless its class says more (a text field, a progress bar, a list).
enum AccessibilityRole: Hashable, Sendable {
    case application, window, popupWindow, dialog, alert
    case button, toggleButton, slider, progressBar, textField, passwordField, label, heading, link, image
    case list, listItem, scrollArea, group, panel, tab, tabList, menu, menuItem, toolTip, spinButton, notification
}

/// The states of a node an assistive technology reads (rule Y2).
enum AccessibilityState: Hashable, Sendable {
    case active, enabled, sensitive, visible, showing, focusable, focused
    case checkable, checked, selectable, selected, editable, singleLine, multiLine
    case modal, horizontal, readOnly, defunct
    case expandable, expanded, collapsed, hasPopup, multiSelectable
}

/// What changed on an element: the exporter turns it into an event.
enum AccessibilityChange: Hashable, Sendable {
    case name, description, value, states, children, text, caret
    /// A notification container came into a shown window: it is told as just shown.
    case appeared
    /// Part of a long text changed (a text view's edit): at a character offset,
    /// what went and what came, told as AT-SPI's delete and insert.
    case textEdited(at: Int, removed: String, inserted: String)
}

/// A number an adjustable element or a progress bar holds (AT-SPI's Value).
struct AccessibilityNumericValue: Equatable {
    var minimum: Double
    var maximum: Double
    var current: Double
    /// The smallest step; 0 when continuous.
    var step: Double
}

/// One node of the tree assistive technologies see (rule Y1): a window, a view
/// that is an element or a container of its own, or an ``AccessibilityElement``.
/// Made fresh from the views each time it is asked for, so it is never stale.
@MainActor
enum AccessibilityNode {
    case window(Window)
    case view(View)
    case element(AccessibilityElement)

    /// The object the node stands for: its identity to the exporter.
    var object: AnyObject {
        switch self {
        case let .window(w): w
        case let .view(v): v
        case let .element(e): e
        }
    }

    // MARK: The tree (rule Y1)

    /// The nodes below this one, in reading order.
    var children: [AccessibilityNode] {
        switch self {
        case let .window(w): return (w.decorations.map(Self.contents(of:)) ?? []) + Self.contents(of: w.rootView)
        case let .view(v):
            if let list = rows { return (0..<list.numberOfRows).map { .element(list.rowElement($0)) } }
            return v.isAccessibilityElement ? [] : Self.contents(of: v)
        case .element: return []
        }
    }

    /// The list whose rows are this node's children: read one at a time
    /// (``ListView/rowElement(_:)``), never all made to be counted.
    var rows: ListView? {
        if case let .view(list as ListView) = self, !list.isAccessibilityElement, list.accessibilityElements == nil { list } else { nil }
    }

    /// What `view` puts into its container's children: itself when it is an
    /// element or a container of its own, else its contents; nothing when hidden.
    static func exposed(_ view: View) -> [AccessibilityNode] {
        guard isShown(view) else { return [] }
        if view.isAccessibilityElement || view.isAccessibilityContainerNode {
            return [.view(view)]
        }
        return contents(of: view)
    }

    /// A container's elements: ``View/accessibilityElements`` when set, else the
    /// subviews in reading order — rows from the top, each from the leading
    /// edge — only the frontmost modal one among siblings that has one (rule Y3).
    static func contents(of view: View) -> [AccessibilityNode] {
        if view.accessibilityElementsHidden { return [] }
        if let elements = view.accessibilityElements {
            return elements.flatMap { item -> [AccessibilityNode] in
                if let v = item as? View { return exposed(v) }
                if let e = item as? AccessibilityElement, e.isAccessibilityElement { return [.element(e)] }
                return []
            }
        }
        var subviews = view.subviews.filter(isShown)
        if let modal = subviews.last(where: \.accessibilityViewIsModal) { subviews = [modal] }
        return View.inReadingOrder(subviews, rightToLeft: view.effectiveUserInterfaceLayoutDirection == .rightToLeft).flatMap(exposed)
    }

    static func isShown(_ view: View) -> Bool { !view.isHidden && view.alpha > 0.01 }

    /// The node's parent in the exported tree: the nearest ancestor that is a
    /// node of its own, else the window; nil for a window (the application holds it).
    var parent: AccessibilityNode? {
        var container: View?
        switch self {
        case .window: return nil
        case let .view(v): container = v.superview
        case let .element(e):
            guard let view = e.accessibilityContainer as? View else { return nil }
            if view.isAccessibilityContainerNode { return .view(view) }
            container = view.superview
        }
        while let view = container {
            if let window = view.hostWindow, window.rootView === view { return .window(window) }
            if view.isAccessibilityContainerNode || view.isAccessibilityElement { return .view(view) }
            container = view.superview
        }
        return window.map { .window($0) }
    }

    /// Whether the node is still in a shown window's tree: a node the
    /// assistive technology holds after its view left is defunct.
    var isAttached: Bool {
        switch self {
        case let .window(w): w.isVisible
        case let .view(v): v.window?.isVisible == true
        case let .element(e): e.accessibilityIsAttached && (e.accessibilityContainer as? View)?.window?.isVisible == true
        }
    }

    /// The window the node is in.
    var window: Window? {
        switch self {
        case let .window(w): w
        case let .view(v): v.window
        case let .element(e): (e.accessibilityContainer as? View)?.window
        }
    }

    // MARK: What it says (rule Y2)

    var name: String {
        switch self {
        case let .window(w): w.title
        case let .view(v): v.accessibilityLabel ?? ""
        case let .element(e): e.accessibilityLabel ?? ""
        }
    }

    var hint: String {
        switch self {
        case .window: ""
        case let .view(v): v.accessibilityHint ?? ""
        case let .element(e): e.accessibilityHint ?? ""
        }
    }

    var value: String? {
        switch self {
        case .window: nil
        case let .view(v): v.accessibilityValue
        case let .element(e): e.accessibilityValue
        }
    }

    var traits: AccessibilityTraits {
        switch self {
        case .window: []
        case let .view(v): v.accessibilityTraits
        case let .element(e): e.accessibilityTraits
        }
    }

    var identifier: String? {
        switch self {
        case .window: nil
        case let .view(v): v.accessibilityIdentifier
        case let .element(e): e.accessibilityIdentifier
        }
    }

    var language: String? {
        switch self {
        case .window: nil
        case let .view(v): v.accessibilityLanguage
        case let .element(e): e.accessibilityLanguage
        }
    }

    var role: AccessibilityRole {
        switch self {
        case let .window(w): return w.isToolTip ? .toolTip : w.popupHost != nil ? .popupWindow : w.isModal ? .dialog : .window
        case let .view(v):
            if let role = v.accessibilityRole { return role }
            if v.isAccessibilityElement { return Self.role(for: v.accessibilityTraits) }
            switch v.accessibilityContainerType {
            case .list, .dataTable: return .list
            case .landmark, .semanticGroup: return .group
            case .notification: return .notification
            case .none: return v.shouldGroupAccessibilityChildren ? .group : .panel
            }
        case let .element(e): return e.accessibilityRole ?? Self.role(for: e.accessibilityTraits)
        }
    }

    /// An element's role from its traits, the way VoiceOver reads them; plain
    /// elements are text.
    static func role(for traits: AccessibilityTraits) -> AccessibilityRole {
        if traits.contains(.toggleButton) { return .toggleButton }
        if traits.contains(.adjustable) { return .slider }
        if traits.contains(.tabBar) { return .tab }
        if traits.contains(.link) { return .link }
        if traits.contains(.button) || traits.contains(.keyboardKey) { return .button }
        if traits.contains(.searchField) { return .textField }
        if traits.contains(.header) { return .heading }
        if traits.contains(.image) { return .image }
        return .label
    }

    /// Where it is, in its window's coordinates (rule Y3): the surface's, title
    /// bar and shadow included, as GTK 4 reports them.
    var frame: Rect {
        switch self {
        case let .window(w): w.surfaceLayer.bounds
        case let .view(v): v.accessibilityFrame
        case let .element(e): e.accessibilityFrame
        }
    }

    var states: Set<AccessibilityState> {
        guard isAttached else { return [.defunct] }
        var states: Set<AccessibilityState> = [.visible, .showing]
        if case let .window(w) = self {
            states.formUnion([.enabled, .sensitive])
            if Application.shared.keyboardFocusWindow === w { states.insert(.active) }
            if w.isModal { states.insert(.modal) }
            return states
        }
        let traits = traits, role = role
        if !traits.contains(.notEnabled) { states.formUnion([.enabled, .sensitive]) }
        if role == .toggleButton || traits.contains(.toggleButton) {
            // A toggle is on when selected, or (UIKit's switch, a row's switch) when its value is "1".
            states.insert(.checkable)
            if (role == .toggleButton && traits.contains(.selected)) || value == "1" { states.insert(.checked) }
        }
        if traits.contains(.selected), role != .toggleButton { states.insert(.selected) }
        if [.tab, .listItem].contains(role) { states.insert(.selectable) }
        if role == .slider || role == .progressBar { states.insert(.horizontal) }
        if case let .view(textView as TextView) = self {
            states.insert(.multiLine)
            if textView.isEditable { states.insert(.editable) }
        } else if role == .textField || role == .passwordField {
            states.formUnion([.editable, .singleLine])
        }
        if let expanded = isExpanded { states.formUnion([.expandable, .hasPopup, expanded ? .expanded : .collapsed]) }
        switch self {
        case let .view(v):
            if (v as? ListView)?.allowsMultipleSelection == true { states.insert(.multiSelectable) }
            if v.canBecomeFirstResponder { states.insert(.focusable) }
            if v.isFirstResponder { states.insert(.focused) }
            // A collection view's item takes the focus through its collection view.
            if let cell = v as? CollectionViewCell, let cv = cell.collectionView, cv.canBecomeFirstResponder {
                states.insert(.focusable)
                if cv.isFirstResponder, cv.accessibilityFocusObject === cell { states.insert(.focused) }
            }
            if v.accessibilityViewIsModal { states.insert(.modal) }
        case let .element(e):
            if e.accessibilityIsFocusable { states.insert(.focusable) }
            if e.accessibilityIsFocused { states.insert(.focused) }
            if !e.accessibilityIsShowing { states.remove(.showing) }
        case .window: break
        }
        return states
    }

    /// Whether what it opens is open (nil: it opens nothing).
    var isExpanded: Bool? {
        switch self {
        case .window: nil
        case let .view(v): v.accessibilityIsExpanded
        case let .element(e): e.accessibilityIsExpanded
        }
    }

    /// The nodes that name this one (labelled-by) and those it names (label-for).
    var relations: [(type: UInt32, targets: [AccessibilityNode])] {
        guard case let .view(v) = self else { return [] }
        var relations: [(UInt32, [AccessibilityNode])] = []
        if let label = v.accessibilityLabeledBy { relations.append((AtSpiMapping.labelledBy, [.view(label)])) }
        let named = v.accessibilityLabelFor
        if !named.isEmpty { relations.append((AtSpiMapping.labelFor, named.map { .view($0) })) }
        return relations
    }

    /// A number it holds: a slider's or a progress bar's.
    var numericValue: AccessibilityNumericValue? {
        if case let .view(v) = self { return v.accessibilityNumericValue }
        return nil
    }

    // MARK: What it does (rule Y4)

    /// Its actions' names: a press for what is pressed, increment and decrement
    /// for what is adjustable, then its custom actions.
    var actionNames: [String] {
        var names: [String] = []
        switch role {
        case .button, .link, .tab, .listItem, .menuItem: names.append("click")
        case .toggleButton: names.append("toggle")
        case .textField, .passwordField: names.append("activate")
        case .slider, .spinButton: names += ["increment", "decrement"]
        default: break
        }
        // A row with a switch in it toggles it too.
        if role != .toggleButton, traits.contains(.toggleButton) { names.append("toggle") }
        return names + customActions.map(\.name)
    }

    private var customActions: [AccessibilityCustomAction] {
        switch self {
        case .window: []
        case let .view(v): v.accessibilityCustomActions ?? []
        case let .element(e): e.accessibilityCustomActions ?? []
        }
    }

    /// Performs the action at `index` through the same path as the person's
    /// input; refused (false) when the element is not enabled or the index is out of range.
    func performAction(at index: Int) -> Bool {
        let names = actionNames
        guard names.indices.contains(index), isAttached, !traits.contains(.notEnabled) else { return false }
        let custom = customActions
        let builtIn = names.count - custom.count
        if index >= builtIn { return custom[index - builtIn].actionHandler(custom[index - builtIn]) }
        switch (self, names[index]) {
        case let (.view(v), "toggle") where role != .toggleButton: return v.accessibilityToggle()
        case let (.element(e), "toggle") where role != .toggleButton: return e.accessibilityToggle()
        case let (.view(v), "increment"): v.accessibilityIncrement(); return true
        case let (.view(v), "decrement"): v.accessibilityDecrement(); return true
        case let (.element(e), "increment"): e.accessibilityIncrement(); return true
        case let (.element(e), "decrement"): e.accessibilityDecrement(); return true
        case let (.view(v), _): return v.accessibilityActivate()
        case let (.element(e), _): return e.accessibilityActivate()
        case (.window, _): return false
        }
    }

    /// Gives it the keyboard focus (AT-SPI's `GrabFocus`).
    func grabFocus() -> Bool {
        guard case let .view(v) = self, isAttached, v.canBecomeFirstResponder else { return false }
        return v.becomeFirstResponder()
    }
}
