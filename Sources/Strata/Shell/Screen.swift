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

    /// The part of the screen ordinary windows get: ``bounds`` less the strips
    /// panels keep with their exclusive zones. The compositor tells a client the
    /// free area's size, never where it lies, so its origin is ``bounds``'s.
    /// It is learnt from an unmapped surface on the background layer spanning
    /// the screen (made the first time this is read, on a compositor with shell
    /// layers), which the compositor configures to the free size whenever panels
    /// come, go or change: until its first configure, and where there are no shell
    /// layers or offscreen, it is ``bounds``. ``onUsableBoundsChange`` tells of changes.
    public var usableBounds: Rect {
        watchUsableArea()
        guard let usable else { return bounds }
        return Rect(x: 0, y: 0, width: min(bounds.width, usable.width), height: min(bounds.height, usable.height))
    }
    /// Called when ``usableBounds`` changes (once it has been read).
    public var onUsableBoundsChange: ((Screen) -> Void)?
    private var usable: Size?
    private var usableProbe: ShellSurface?

    private func watchUsableArea() {
        guard usableProbe == nil, let display = Application.shared.display, display.layerShell != nil,
              let probe = try? ShellSurface(display: display, layer: .background, namespace: "strata-usable-area",
                                            output: output, width: 0, height: 0, anchors: .all) else { return }
        probe.onConfigure = { [unowned self] s in
            let size = Size(width: Double(s.width) / scale, height: Double(s.height) / scale)
            guard size != usable else { return }
            usable = size
            onUsableBoundsChange?(self)
        }
        probe.onClosed = { [unowned self] s in
            s.close()
            usableProbe = nil
        }
        usableProbe = probe
    }

    /// The screen went (or the app disconnected): its probe goes too.
    func detach() {
        usableProbe?.close()
        usableProbe = nil
    }
}
