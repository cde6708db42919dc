/// What an app set on an element (nil: the class's default), as UIKit keeps
/// for every object: stored once per view or ``AccessibilityElement``.
struct AccessibilityAttributes {
    var isElement: Bool?
    var label: String?
    var hint: String?
    var value: String?
    var identifier: String?
    var language: String?
    var traits: AccessibilityTraits?
    /// In window coordinates (rule Y3).
    var frame: Rect?
    var elements: [Any]?
    var elementsHidden = false
    var viewIsModal = false
    var groupsChildren = false
    var containerType: AccessibilityContainerType?
    /// A role the toolkit gives one view of a class that has another (a tab bar's buttons are tabs).
    var role: AccessibilityRole?
    var customActions: [AccessibilityCustomAction]?
    /// The view whose label names this one (AT-SPI's labelled-by).
    weak var labeledBy: View?
    /// The views this one names (AT-SPI's label-for), held weakly.
    var labelFor: [WeakView] = []
}

/// A view held weakly, in a list.
struct WeakView {
    weak var view: View?
}

/// What kind of container a view is to assistive technologies
/// (`UIAccessibilityContainerType`): a container that is not `.none` is
/// exported as a node of its own (a list, a table, a group) holding its elements.
public enum AccessibilityContainerType: Hashable, Sendable {
    case none
    case dataTable
    case list
    case landmark
    case semanticGroup
    /// Strata's own, with no UIKit counterpart: something that comes and goes
    /// by itself and is said whole as it appears — a toast, a banner. Exported
    /// with AT-SPI's notification role (GTK 4's alert role), and shown with a
    /// `showing` state change, which Orca speaks as it comes ("notification",
    /// then the labels in it) whichever window has the focus.
    case notification
}
