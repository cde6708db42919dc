/// Options of a view animation block (`UIView.AnimationOptions`, rules V6–V8).
/// The raw values are UIKit's, so option sets port unchanged.
public struct AnimationOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Lays out the views the block changed before it ends, so their new layout animates with it.
    public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
    /// The animated views keep receiving input (rule V8).
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// Non-additive properties start from what is on screen (rule V7).
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Repeats forever.
    public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
    /// Each cycle runs forwards, then backwards.
    public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
    /// A nested block uses its own duration, not the running block's (rule V6).
    public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
    /// A nested block uses its own curve, not the running block's (rule V6).
    public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
    /// A nested block takes none of the running block's other options (rule V6).
    public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)

    /// Slow at both ends: the default curve (rule V8).
    public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
    public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
    public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

    /// View transitions (`transition(with:duration:options:animations:completion:)`).
    public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
    public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
    public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
    public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)

    /// The options that are plain flags (not the curve or transition fields).
    static let flags: AnimationOptions = [.layoutSubviews, .allowUserInteraction, .beginFromCurrentState, .repeat, .autoreverse]

    /// The timing function the curve field names.
    var curve: MediaTimingFunction {
        switch (rawValue >> 16) & 3 {
        case 1: MediaTimingFunction(name: .easeIn)
        case 2: MediaTimingFunction(name: .easeOut)
        case 3: MediaTimingFunction(name: .linear)
        default: MediaTimingFunction(name: .easeInEaseOut)
        }
    }

    /// The transition field (0: none).
    var transition: UInt { (rawValue >> 20) & 7 }
}
