import WaylandClient

/// An output the compositor shows windows on (`UIScreen`; SEMANTICS S): its
/// name, description, scale and size in points. ``screens`` lists the
/// application's — a process-wide list, as UIKit's `UIScreen.screens` is, kept
/// by ``Application``, which tells ``Application/onScreenAdded`` and
/// ``Application/onScreenRemoved`` as outputs come and go (a panel per output is
/// made and closed with them). A Wayland client cannot know where an output is
/// in the compositor's layout, so ``bounds`` starts at the origin.
@MainActor
public final class Screen {
    /// The application's screens, in the order the compositor announced them
    /// (empty offscreen). UIKit makes this global; here it is the application's.
    public static var screens: [Screen] { Application.shared.screens }

    let output: Output
    init(_ output: Output) { self.output = output }

    /// The output's name ("HDMI-A-1", "HEADLESS-1"), or "" where the compositor gives none.
    public var name: String { output.name ?? "" }
    /// A description a person reads, else the make and model.
    public var description: String { output.description ?? [output.make, output.model].filter { !$0.isEmpty }.joined(separator: " ") }
    /// Device pixels per point (the output's integer scale).
    public var scale: Double { Double(output.scale) }
    /// The output's size in points, as shown (rotation applied), at the origin.
    public var bounds: Rect {
        let (w, h) = output.shownSize
        return Rect(x: 0, y: 0, width: Double(w) / scale, height: Double(h) / scale)
    }
    /// Refreshes per second (0 when the compositor does not say).
    public var maximumFramesPerSecond: Double { Double(output.refresh) / 1000 }
}
