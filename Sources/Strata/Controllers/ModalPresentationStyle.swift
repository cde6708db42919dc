/// How a presented view controller is shown (`UIModalPresentationStyle`), the
/// styles that make sense in a desktop window.
public enum ModalPresentationStyle: Hashable, Sendable {
    /// The system's choice: a page sheet, as on iPadOS.
    case automatic
    /// A card over the dimmed presenter, as wide as a readable page (at most 700
    /// points) and reaching the bottom; Escape, a click outside or a drag down
    /// past half way dismisses it.
    case pageSheet
    /// A centred card of ``ViewController/preferredContentSize`` (540 × 620 when
    /// zero) over the dimmed presenter; dismissed as a page sheet is.
    case formSheet
    /// Covers the window; the presenter disappears.
    case fullScreen
    /// A popover: a popup pointing at ``PopoverPresentationController/sourceView``
    /// at ``ViewController/preferredContentSize`` (320 × 360 when zero), over
    /// everything and not dimming the presenter; a click outside it or Escape
    /// dismisses it. Without a source view in a window it is shown as a form sheet.
    case popover
    /// The presented view over the presenter, which stays as it is: no card, no
    /// dimming, nothing dismisses it but code. Its ``ViewController/transitioningDelegate``
    /// animates it in and out; without one it slides up from the bottom edge and back down.
    case custom

    /// The style shown: `.automatic` is a page sheet.
    var resolved: ModalPresentationStyle {
        switch self {
        case .automatic: .pageSheet
        default: self
        }
    }

    /// Whether the presenter stays visible behind it (dimmed, but for a popover or a custom presentation).
    var isSheet: Bool { resolved != .fullScreen }
    /// Whether a transitioning delegate's animator shows it (UIKit's rule: full screen and custom).
    var takesCustomTransitions: Bool { self == .fullScreen || self == .custom }
}
