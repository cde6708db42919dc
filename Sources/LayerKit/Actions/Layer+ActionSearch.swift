/// The action search (rules A3–A6), in the order Core Animation uses, and the
/// point where a property change runs what it found.
extension Layer {
    /// The action for `event` (`CALayer.action(forKey:)`), searched in this order,
    /// stopping at the first step that yields anything (rule A3):
    ///
    /// 1. the delegate's `action(for:forKey:)`;
    /// 2. the ``actions`` dictionary;
    /// 3. the ``style`` dictionary's `"actions"`, then its `"style"`'s, recursively;
    /// 4. ``defaultAction(forKey:)`` of the layer's class;
    /// 5. the implicit animation for the key (rule B1), if any.
    ///
    /// Nil at steps 1–3 means "go on"; a `NullAction` ends the search, and then this
    /// returns nil (rules A4, A5). `Transaction.disableActions` does not change the
    /// answer: it is applied where a change would run the action.
    public func action(forKey event: String) -> (any Action)? {
        let (found, step) = searchAction(forKey: event)
        let action = found is NullAction ? nil : found
        ActionTrace.record(self, event, step, found is NullAction ? .stoppedByNullAction : (action == nil ? .noAction : .lookedUp))
        return action
    }

    /// The search itself: what was found (possibly a `NullAction`) and at which step.
    func searchAction(forKey event: String) -> (action: (any Action)?, step: ActionTrace.Step) {
        if let found = explicitAction(forKey: event) { return found }
        if let a = implicitAction(forKey: event) { return (a, .implicit) }
        return (nil, .none)
    }

    /// Steps 1–4 of the search: what the delegate, the ``actions`` dictionary, the
    /// ``style`` dictionaries or the class give for `event`, possibly a
    /// `NullAction`; nil to go on to step 5.
    @inline(__always)
    func explicitAction(forKey event: String) -> (action: any Action, step: ActionTrace.Step)? {
        if let delegate, let a = delegate.action(for: self, forKey: event) {
            return (a, .delegate)
        }
        if !actions.isEmpty, let a = actions[event] {
            return (a, .actionsDictionary)
        }
        if !styleStorage.isEmpty, let found = styleAction(forKey: event) {
            return found
        }
        if let a = type(of: self).defaultAction(forKey: event) {
            return (a, .defaultAction)
        }
        return nil
    }

    /// Step 3: the style dictionary's `"actions"`, then its `"style"`'s, recursively.
    private func styleAction(forKey event: String) -> (action: any Action, step: ActionTrace.Step)? {
        var depth = 0
        var styleDictionary: [String: Any]? = styleStorage
        while let current = styleDictionary {
            if let table = current["actions"] as? [String: any Action], let a = table[event] {
                return (a, .style(depth: depth))
            }
            styleDictionary = current["style"] as? [String: Any]
            depth += 1
            if depth > 64 { break }  // a style nested in itself ends here
        }
        return nil
    }

    /// Step 5: the animation Core Animation would run for a change of `key` (rule B1).
    ///
    /// An animatable property gets a ``BasicAnimation`` from the current
    /// presentation value (so a change mid-animation continues from what is on
    /// screen, rule B4), with the transaction's duration and timing function,
    /// else the `default` curve. A change of `sublayers` fades.
    @inline(__always)
    func hasImplicitAction(forKey key: String, slot: StateSlot? = nil) -> Bool {
        if let slot, animatesImplicitly(slot) { return true }
        return hasImplicitAction(byDescriptorOf: key)
    }

    private func hasImplicitAction(byDescriptorOf key: String) -> Bool {
        key == "sublayers" || type(of: self).propertyDescriptors[key]?.isImplicitlyAnimatable == true
    }

    /// The implicit animation itself, as the object `action(forKey:)` returns.
    func implicitAction(forKey key: String, oldValue: Any? = nil) -> (any Action)? {
        if key == "sublayers" {
            let fade = Transition()
            fade.type = .fade
            fade.duration = context.implicitDuration
            fade.timingFunction = context.implicitTimingFunction ?? .default
            return fade
        }
        guard let property = type(of: self).propertyDescriptors[key], property.isImplicitlyAnimatable else { return nil }
        let animation = BasicAnimation(keyPath: key)
        if animationEntries.isEmpty {
            animation.fromValue = oldValue ?? property.read(self)
        } else {
            animation.fromValue = presentationValue(forKeyPath: key)
        }
        animation.duration = context.implicitDuration
        animation.timingFunction = context.implicitTimingFunction ?? .default
        animation.isImplicit = true
        return animation
    }

    /// Step 5 for a standard property whose values the setter has at hand: where
    /// the same animation as ``implicitAction(forKey:oldValue:)``'s starts, as a
    /// value of the property's type (the animation is then kept as a typed track,
    /// `addImplicitAnimation`). Nil when the value shown is not of that type.
    func implicitAnimationStart(_ change: TypedChange) -> SlotValue? {
        // Mid-animation, the animation starts from what is shown (rule B4).
        animationEntries.isEmpty ? change.old : change.slot.read(presentationState(atTime: MediaTime.clock.now))
    }

    /// True when the property at `slot` animates implicitly on this class (its
    /// descriptor says so, rule B2): worked out from ``propertyDescriptors`` once
    /// per class, and kept by each layer, so a change asks no dictionary.
    @inline(__always)
    func animatesImplicitly(_ slot: StateSlot) -> Bool {
        if implicitSlotBits == 0 { workOutImplicitSlots() }
        return implicitSlotBits & (1 << slot.rawValue) != 0
    }

    private func workOutImplicitSlots() {
        let type = type(of: self), id = ObjectIdentifier(type)
        if let bits = Layer.implicitSlotBitsByClass[id] {
            implicitSlotBits = bits
        } else {
            var bits: UInt64 = 1 << 63   // worked out
            for d in type.propertyDescriptors.values where d.isImplicitlyAnimatable {
                if let s = d.slot { bits |= 1 << s.rawValue }
            }
            Layer.implicitSlotBitsByClass[id] = bits
            implicitSlotBits = bits
        }
    }

    // A cache of what each class's (immutable) property descriptors say: derived, not state.
    @exclusivity(unchecked) private static var implicitSlotBitsByClass: [ObjectIdentifier: UInt64] = [:]

    /// A subclass's stored property, kept in a struct of its own (`storage`), changed
    /// by its setter: a value with NaN or ∞ in it is refused with a diagnostic (the
    /// property keeps its value); otherwise the same action search and transaction
    /// as `Layer`'s own properties. Every layer class's setters come here.
    package func changeStored<L: Layer, S, T: Equatable>(_ key: String, _ storage: ReferenceWritableKeyPath<L, S>,
                                                          _ slot: WritableKeyPath<S, T>, _ value: T) {
        if let f = value as? FiniteValue, !f.isAllFinite {
            return Diagnostics.report(.invalidValue(key: key, reason: "not finite: \(value)"))
        }
        guard let me = self as? L else { return }
        changeProperty(key, changed: me[keyPath: storage][keyPath: slot] != value) { ($0 as! L)[keyPath: storage][keyPath: slot] = value }
    }


    /// Changes a property and runs its action (rules A6, B5, B6, T3, T5).
    ///
    /// The action is looked up before the model changes (so the implicit animation
    /// starts from what the presentation showed) and run after (so it sees the new
    /// model value). Nothing happens for an unchanged value. `typed`: the values
    /// before and after, when the setter has them (the implicit animation's ends,
    /// not read back by key).
    func changeProperty(_ key: String, changed: Bool, typed: TypedChange? = nil, _ apply: (Layer) -> Void) {
        // A presentation copy changes without actions; so does the write a change
        // makes through a property's own setter (`setValue(_:forKey:)` on a subclass
        // property), which must not run the action a second time.
        if isPresentationCopy || changingKey == key {
            if changed { apply(self) }
            return
        }
        if !styledKeys.isEmpty || !styleStorage.isEmpty { markExplicit(key) }
        guard changed else { return }
        Transaction.ensureOpen(in: context)
        switch actionToRun(forKey: key, typed: typed) {
        case .implicit(let from)?:
            // The common case, kept short: a standard property's implicit animation,
            // made as its typed track after the write (one new version, below, covers
            // the value and the animation). Only a typed change gets here; its setter
            // writes the state alone, so no setter runs again and `changingKey` is
            // not needed.
            let typed = typed.unsafelyUnwrapped
            apply(self)
            addImplicitAnimation(forKey: key, slot: typed.slot, from: from, to: typed.new)
            propertyDidChange(key, mayBeTiming: false)
        case .action(let action)?:
            change(key, running: action, typed: typed, apply)
        case nil:
            change(key, running: nil, typed: typed, apply)
        }
    }

    /// The rest of ``changeProperty(_:changed:typed:_:)``: the write, then `action`
    /// (an animation, a transition, anyone's action, or none).
    private func change(_ key: String, running found: (any Action)?, typed: TypedChange?, _ apply: (Layer) -> Void) {
        var action = found
        if let action { captureTransitionSnapshot(for: action) }
        if typed == nil {
            let outerKey = changingKey
            changingKey = key
            apply(self)
            changingKey = outerKey
        } else {
            apply(self)
        }
        // The implicit animation was made for this change alone: no one else holds
        // it, so it is added as is rather than copied.
        if let implicit = action as? BasicAnimation, implicit.isImplicit {
            if implicit.toValue == nil { implicit.toValue = typed?.new.anyValue ?? value(forKeyPath: key) }
            addEntry(implicit, forKey: key, notingChange: false)
            action = nil
        }
        propertyDidChange(key, mayBeTiming: typed == nil)
        action?.run(forKey: key, object: self, arguments: nil)
        if typed == nil, key == "hidden" {
            orderEvent(state.isHidden ? Layer.onOrderOut : Layer.onOrderIn)
        }
    }

    /// Runs the action for a special event (`onOrderIn`, `onOrderOut`,
    /// `transition`, `sublayers`) when the layer is in a visible tree.
    func orderEvent(_ key: String, replacing old: Layer? = nil) {
        guard isInVisibleTree, let action = actionToRun(forKey: key) else { return }
        // A transition on replaceSublayer's new layer starts from the layer it replaces.
        if action is Transition, let old { pendingTransitionSnapshot = LayerSnapshot(of: old) }
        action.run(forKey: key, object: self, arguments: nil)
    }

    /// What a property change runs (rule A6).
    enum ActionToRun {
        /// What the search found: an animation, a transition, anyone's action.
        case action(any Action)
        /// The implicit animation of a standard property, from this value to the
        /// new one, to be kept as a typed track rather than an object.
        case implicit(from: SlotValue)
    }

    /// The action a change of `key` should run now, honouring `disableActions`
    /// (rule T3) and the never-presented rule (B5), with the trace of why.
    func actionToRun(forKey key: String) -> (any Action)? {
        if case .action(let a)? = actionToRun(forKey: key, typed: nil) { return a }
        return nil
    }

    /// The same, for a change whose values the setter has (`typed`): then the
    /// implicit animation of a standard property is made as its typed track.
    func actionToRun(forKey key: String, typed: TypedChange?) -> ActionToRun? {
        if context.actionsDisabled {
            ActionTrace.record(self, key, .none, .actionsDisabled)
            return nil
        }
        let found: (any Action)?, step: ActionTrace.Step
        if let explicit = explicitAction(forKey: key) {
            (found, step) = explicit
        } else if !hasBeenPresented {
            // Rule B5: a layer never presented gets no implicit animation; none is built.
            if hasImplicitAction(forKey: key, slot: typed?.slot) {
                ActionTrace.record(self, key, .implicit, .notYetPresented)
                return nil
            }
            (found, step) = (nil, .none)
        } else if let typed, hasImplicitAction(forKey: key, slot: typed.slot) {
            // Step 5 for a standard property: kept as a typed track, no object made.
            ActionTrace.record(self, key, .implicit, .ran)
            if TypedTrack.isEnabled, let from = implicitAnimationStart(typed) { return .implicit(from: from) }
            return implicitAction(forKey: key, oldValue: typed.old.anyValue).map(ActionToRun.action)
        } else if typed == nil, let a = implicitAction(forKey: key) {
            (found, step) = (a, .implicit)
        } else {
            (found, step) = (nil, .none)
        }
        if found is NullAction {
            ActionTrace.record(self, key, step, .stoppedByNullAction)
            return nil
        }
        guard let found else {
            ActionTrace.record(self, key, step, .noAction)
            return nil
        }
        ActionTrace.record(self, key, step, .ran)
        return .action(found)
    }
}
