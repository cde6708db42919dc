import LayerKit

/// A dynamic colour a view gave one of its layers, with what it resolved to:
/// when the traits change it is resolved again — unless something else has
/// set that property of the layer since.
struct DynamicColorBinding {
    let layer: ObjectIdentifier
    let key: AnyKeyPath
    let color: Color
    var resolved: Color
    /// Reads the layer's property now (nil when the layer is gone).
    let read: @MainActor () -> Color??
    let write: @MainActor (Color) -> Void
}

extension View {
    // MARK: Traits (rule P1)

    /// The traits the view draws under (`traitCollection`): its window's — or,
    /// outside a window, the system's for its context — with the overrides of
    /// every view above it and its own applied, outermost first.
    public var traitCollection: TraitCollection {
        var overrides: [TraitCollection] = []
        var view: View = self
        while true {
            if view.traitOverrides != TraitCollection() { overrides.append(view.traitOverrides) }
            guard let up = view.superview else { break }
            view = up
        }
        var traits = view.hostWindow?.traitCollection ?? layer.context.systemTraits
        for o in overrides.reversed() { traits = traits.overlaid(by: o) }
        return traits
    }

    /// The direction the view lays out its content in
    /// (`effectiveUserInterfaceLayoutDirection`, rule P3): forced by
    /// ``semanticContentAttribute``, left to right for playback and spatial
    /// controls, else its traits' direction.
    public var effectiveUserInterfaceLayoutDirection: LayoutDirection {
        switch semanticContentAttribute {
        case .forceLeftToRight, .playback, .spatial: .leftToRight
        case .forceRightToLeft: .rightToLeft
        case .unspecified: traitCollection.layoutDirection == .rightToLeft ? .rightToLeft : .leftToRight
        }
    }

    /// `rect`, laid out from the left, mirrored across the bounds when the view
    /// lays out right to left: how the toolkit's views place their parts (rule P3).
    func mirroredForLayoutDirection(_ rect: Rect) -> Rect {
        guard effectiveUserInterfaceLayoutDirection == .rightToLeft else { return rect }
        return Rect(x: bounds.width - rect.maxX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// Whether the toolkit's own decorative motion is left out for this view: the
    /// system asks for less motion in its context (rule P4).
    var reducesMotion: Bool { layer.context.systemReducesMotion }

    /// Light or dark for this view and its subtree, whatever the system says
    /// (`overrideUserInterfaceStyle`); `.unspecified` inherits.
    public var overrideUserInterfaceStyle: UserInterfaceStyle {
        get { traitOverrides.userInterfaceStyle }
        set { traitOverrides.userInterfaceStyle = newValue }
    }

    /// Tells every view in this subtree whose traits changed since it was last
    /// told: its dynamic colours are resolved again (without animating — rule P1),
    /// a view that drew is marked for display, then `traitCollectionDidChange`.
    func propagateTraits() {
        var stack: [(View, TraitCollection)] = [(self, superview?.traitCollection ?? baseTraits)]
        Transaction.withoutActions {
            while let (view, inherited) = stack.popLast() {
                let traits = inherited.overlaid(by: view.traitOverrides)
                if traits != view.deliveredTraits {
                    let previous = view.deliveredTraits
                    view.deliveredTraits = traits
                    view.traitsDidChange(from: previous, to: traits)
                }
                for subview in view.subviews.reversed() { stack.append((subview, traits)) }
            }
        }
    }

    /// The traits a root view inherits: its window's, else its context's system traits.
    private var baseTraits: TraitCollection { hostWindow?.traitCollection ?? layer.context.systemTraits }

    private func traitsDidChange(from previous: TraitCollection?, to traits: TraitCollection) {
        if traits.hasDifferentColorAppearance(comparedTo: previous) {
            resolveDynamicColors(with: traits)
            if hasDrawnContent { setNeedsDisplay() }
        }
        if traits.preferredContentSizeCategory != previous?.preferredContentSizeCategory { contentSizeCategoryDidChange(to: traits) }
        if let previous, traits.layoutDirection != previous.layoutDirection { layoutDirectionDidChange() }
        if let previous { traitCollectionDidChange(previous) }
    }

    // MARK: Dynamic colours on layers (rule P2)

    /// Gives `layer`'s colour property `color`, resolved against the view's
    /// traits; a dynamic colour is kept to resolve again when they change.
    func setColor<L: Layer>(_ color: Color?, of layer: L, _ key: ReferenceWritableKeyPath<L, Color?>) {
        dynamicColors.removeAll { $0.layer == ObjectIdentifier(layer) && $0.key == key }
        guard let color, color.isDynamic else {
            layer[keyPath: key] = color
            return
        }
        let resolved = color.resolvedColor(with: traitCollection)
        layer[keyPath: key] = resolved
        dynamicColors.append(DynamicColorBinding(layer: ObjectIdentifier(layer), key: key, color: color, resolved: resolved,
                                                 read: { [weak layer] in layer.map { $0[keyPath: key] } },
                                                 write: { [weak layer] in layer?[keyPath: key] = $0 }))
    }

    /// The dynamic colour this view gave `layer`'s property, if it still holds it.
    func dynamicColor<L: Layer>(of layer: L, _ key: ReferenceWritableKeyPath<L, Color?>) -> Color? {
        guard let i = dynamicColors.firstIndex(where: { $0.layer == ObjectIdentifier(layer) && $0.key == key }) else { return nil }
        let binding = dynamicColors[i]
        return layer[keyPath: key] == binding.resolved ? binding.color : nil
    }

    private func resolveDynamicColors(with traits: TraitCollection) {
        dynamicColors = dynamicColors.compactMap { binding in
            // Gone, or set to something else since: no longer this view's to follow.
            guard let current = binding.read(), current == binding.resolved else { return nil }
            var binding = binding
            binding.resolved = binding.color.resolvedColor(with: traits)
            binding.write(binding.resolved)
            return binding
        }
    }
}

extension Window {
    /// The window's traits (`traitCollection`): the system's for its context
    /// (``LayerContext/systemTraits`` — the desktop's settings for the app's
    /// windows), its ``traitOverrides`` and its scale (rule P1). A menu, tooltip or
    /// popover has the traits of the view it opened for (its overrides included).
    public var traitCollection: TraitCollection {
        var traits = (inheritedTraits?() ?? surfaceLayer.context.systemTraits).overlaid(by: traitOverrides)
        traits.displayScale = scale
        return traits
    }

    /// Light or dark for the whole window, whatever the system says
    /// (`overrideUserInterfaceStyle`); `.unspecified` follows the system.
    public var overrideUserInterfaceStyle: UserInterfaceStyle {
        get { traitOverrides.userInterfaceStyle }
        set { traitOverrides.userInterfaceStyle = newValue }
    }

    /// Tells the window's views when its traits changed since they were last
    /// told: called before every layout pass (each frame, each snapshot), so a
    /// change of the system's appearance shows in the next frame.
    func updateTraitsIfNeeded() {
        let traits = traitCollection
        guard traits != deliveredTraits else { return }
        let previous = deliveredTraits
        deliveredTraits = traits
        if traits.hasDifferentColorAppearance(comparedTo: previous) { applyBackgroundColor() }
        rootView.propagateTraits()
        decorations?.propagateTraits()
    }
}
