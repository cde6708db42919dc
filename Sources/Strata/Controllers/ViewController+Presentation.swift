import LayerKit

extension ViewController {
    /// Presents `controller` modally in this controller's window
    /// (`present(_:animated:completion:)`), as its ``modalPresentationStyle``
    /// says; animated, the card slides up from the bottom edge over 0.35 s (ease
    /// in-out) while the presenter dims. Calls, in order: the presented view's
    /// `loadView`/`viewDidLoad` if not made yet; full screen: the presenter's
    /// `viewWillDisappear`; the presented `viewWillAppear`; after the animation
    /// the presenter's `viewDidDisappear` (full screen), the presented
    /// `viewDidAppear`, then `completion`.
    ///
    /// With the `.fullScreen` or `.custom` style, animated, the controller's
    /// ``transitioningDelegate`` may hand out the animator instead (and something
    /// to drive it interactively): the calls come in the same order, the `did`
    /// ones when the animator completes the transition; a cancelled interactive
    /// presentation is undone, its appearance calls reversed.
    ///
    /// Refused with a diagnostic, as UIKit refuses them: presenting while already
    /// presenting; presenting a controller that is presented or presenting, a
    /// child, a window's root, in a window, or this controller itself; presenting
    /// from a controller being dismissed, or whose view is in no window.
    public func present(_ controller: ViewController, animated: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil else {
            return Diagnostics.report(.invalidView("present: this view controller is already presenting one; dismiss it first"))
        }
        guard presentation?.isDismissing != true else {
            return Diagnostics.report(.invalidView("present: this view controller is being dismissed"))
        }
        guard controller !== self, controller.presentingViewController == nil, controller.presentedViewController == nil,
              controller.parent == nil, controller.hostWindow == nil, controller.viewIfLoaded?.window == nil,
              !isAncestor(of: controller), !isHeld(by: controller) else {
            return Diagnostics.report(.invalidView("present: the view controller is already shown (presented or presenting, a child, a window's root, in a window, or this one)"))
        }
        guard let window = viewIfLoaded?.window else {
            return Diagnostics.report(.invalidView("present: the presenting view controller's view is in no window"))
        }
        controller.loadViewIfNeeded()
        var style = controller.modalPresentationStyle
        var host = window
        var popup: Popup?
        if style == .popover {
            let wanted = controller.preferredContentSize
            let size = wanted.width > 0 && wanted.height > 0 && wanted.width.isFinite && wanted.height.isFinite
                ? Size(width: min(wanted.width, 4096), height: min(wanted.height, 4096)) : Size(width: 320, height: 360)
            if let placement = controller.popoverPresentationController?.placement(size: size, in: window) {
                let p = Popup(on: window, placement: placement, grabsInput: true, traitsFrom: controller.popoverPresentationController?.sourceView ?? view)
                p.open()
                if p.isOpen { (popup, host) = (p, p.window) }
            }
            if popup == nil {
                Diagnostics.report(.invalidView("present: a popover needs a source view in the presenter's window (popoverPresentationController.sourceView); shown as a form sheet"))
                style = .formSheet
            }
        }
        let animator = animated && style.takesCustomTransitions && !controller.presentsAsAlert
            ? controller.transitioningDelegate?.animationController(forPresented: controller, presenting: self, source: self) : nil
        let container = PresentationContainer(presenting: controller, style: style, custom: animator != nil)
        if let popup, let popover = controller.popoverPresentationController {
            container.popup = popup
            popover.popup = popup
            let notePlaced = { [weak popup, weak popover, weak window, weak container] in
                guard let popup, let popover, let window, let source = popover.sourceView else { return }
                let arrow = popover.notePlaced(popup.frame, source: source.convert(popover.sourceRect ?? source.bounds, to: window.rootView))
                container?.arrow = arrow
            }
            popup.onPlaced = notePlaced
            notePlaced()
            // It follows its source when the window's layout moves it.
            popup.currentAnchor = { [weak popover, weak window] in
                guard let popover, let window, let source = popover.sourceView, source.window === window else { return nil }
                return source.convert(popover.sourceRect ?? source.bounds, to: window.rootView)
            }
            // Dismissed by a click outside it or the compositor (popup_done).
            popup.onDismiss = { [weak controller] in
                guard let controller, controller.presentation?.isDismissing == false else { return }
                controller.dismiss(animated: false)
            }
        }
        presentedViewController = controller
        controller.presentingViewController = self
        controller.presentation = container
        container.onClickOutside = { [weak controller] in
            guard let controller, !controller.isModalInPresentation else { return }
            controller.dismiss(animated: true)
        }
        if container.style.isSheet, container.style != .popover, container.alertStyle == nil, !container.isCustom {
            // A sheet can be dragged down to dismiss it.
            let pan = PanGestureRecognizer { [weak controller] in controller?.sheetPanned($0 as! PanGestureRecognizer) }
            pan.shouldBegin = { [weak controller] recognizer in
                guard let controller, !controller.isModalInPresentation, controller.presentation?.isDismissing == false,
                      let pan = recognizer as? PanGestureRecognizer else { return false }
                let t = pan.translation(in: nil)
                return t.y > abs(t.x)
            }
            container.card.addGestureRecognizer(pan)
        }
        let coversPresenter = !container.style.isSheet
        if coversPresenter { beginAppearanceTransition(false, animated: animated) }
        controller.beginAppearanceTransition(true, animated: animated)
        Transaction.withoutActions {
            container.frame = host.rootView.bounds
            container.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            host.rootView.addSubview(container)
            container.layoutIfNeeded()
            container.setShown(!animated || animator != nil, entering: true)
        }
        host.presentations.append(container)
        container.previousFirstResponder = window.firstResponder
        controller.didEnterPresentation()
        // A popover takes the keyboard (its popup grabs it): the focus goes to its first control, as in a GTK popover.
        if popup != nil, host.firstResponder == nil { host.moveFocus(backwards: false) }
        let finish = { [weak self] in
            if coversPresenter { self?.endAppearanceTransition() }
            controller.endAppearanceTransition()
            completion?()
        }
        guard animated else { return finish() }
        if let animator {
            let presenterFrame = view.convert(view.bounds, to: container)
            let context = TransitionContext(
                container: container, from: self, to: controller, fromView: coversPresenter ? view : nil, toView: controller.view,
                frames: [ObjectIdentifier(controller): (.zero, container.bounds),
                         ObjectIdentifier(self): (presenterFrame, coversPresenter ? .zero : presenterFrame)],
                animator: animator) { [weak self, weak controller] completed in
                    guard let self, let controller else { return }
                    completed ? finish() : self.undoPresentation(of: controller, coveredPresenter: coversPresenter)
                }
            return context.start(driven: controller.transitioningDelegate?.interactionControllerForPresentation(using: animator))
        }
        View.animate(duration: PresentationContainer.duration, delay: 0, options: [.curveEaseInOut], {
            container.setShown(true)
        }, completion: { _ in finish() })
    }

    /// A custom presentation its driver cancelled: the controller goes as if
    /// never shown, its appearance calls (and a covered presenter's) reversed
    /// in the order a cancelled pop has them.
    private func undoPresentation(of controller: ViewController, coveredPresenter: Bool) {
        guard let container = controller.presentation else { return }
        container.isDismissing = true
        controller.beginAppearanceTransition(false, animated: true)
        if coveredPresenter { beginAppearanceTransition(true, animated: true) }
        controller.endDismissal(presenter: self, container: container, completion: nil)
    }

    /// Dismisses the controller this one presents, or — called on a presented
    /// controller — this one (`dismiss(animated:completion:)`); controllers it
    /// presented in turn go first, without animation. Animated, the card slides
    /// down as the dimming fades. Calls, in order: the presented
    /// `viewWillDisappear`; full screen: the presenter's `viewWillAppear`; after
    /// the animation the presented `viewDidDisappear`, the presenter's
    /// `viewDidAppear` (full screen), then `completion`. With nothing to dismiss
    /// it does nothing (with a diagnostic).
    public func dismiss(animated: Bool, completion: (() -> Void)? = nil) {
        let presented: ViewController
        if let p = presentedViewController {
            presented = p
        } else if presentingViewController != nil {
            presented = self
        } else {
            return Diagnostics.report(.invalidView("dismiss: this view controller neither presents nor is presented"))
        }
        presented.dismissPresentation(animated: animated, completion: completion)
    }

    private func dismissPresentation(animated: Bool, completion: (() -> Void)?) {
        guard let presenter = presentingViewController, let container = presentation, !container.isDismissing else { return }
        beginDismissal(animated: animated)
        guard animated else { return endDismissal(presenter: presenter, container: container, completion: completion) }
        if container.style.takesCustomTransitions, container.alertStyle == nil,
           let animator = transitioningDelegate?.animationController(forDismissed: self) {
            let uncovers = !container.style.isSheet
            let presenterFrame = presenter.view.convert(presenter.view.bounds, to: container)
            let context = TransitionContext(
                container: container, from: self, to: presenter, fromView: view, toView: uncovers ? presenter.view : nil,
                frames: [ObjectIdentifier(self): (view.frame, .zero),
                         ObjectIdentifier(presenter): (uncovers ? .zero : presenterFrame, presenterFrame)],
                animator: animator) { [weak self, weak presenter, weak container] completed in
                    guard let self, let presenter, let container else { return }
                    if completed { return endDismissal(presenter: presenter, container: container, completion: completion) }
                    // Sent back: still presented, the appearance calls reversed
                    // in the order a cancelled pop has them (rule C1).
                    container.isDismissing = false
                    if uncovers { presenter.beginAppearanceTransition(false, animated: true) }
                    beginAppearanceTransition(true, animated: true)
                    if uncovers { presenter.endAppearanceTransition() }
                    endAppearanceTransition()
                }
            return context.start(driven: transitioningDelegate?.interactionControllerForDismissal(using: animator))
        }
        View.animate(duration: PresentationContainer.duration, delay: 0, options: [.curveEaseInOut], {
            container.setShown(false)
        }, completion: { [self] _ in endDismissal(presenter: presenter, container: container, completion: completion) })
    }

    /// The first half of a dismissal: what this controller presents goes first,
    /// then the disappearance calls begin.
    private func beginDismissal(animated: Bool) {
        guard let presenter = presentingViewController, let container = presentation else { return }
        if let above = presentedViewController { above.dismissPresentation(animated: false, completion: nil) }
        container.isDismissing = true
        beginAppearanceTransition(false, animated: animated)
        if !container.style.isSheet { presenter.beginAppearanceTransition(true, animated: animated) }
    }

    /// The end of a dismissal: the container leaves the window, the links go,
    /// the appearance calls end and the focus goes back.
    func endDismissal(presenter: ViewController, container: PresentationContainer, completion: (() -> Void)?) {
        let window = container.window
        Transaction.withoutActions { container.removeFromSuperview() }
        window?.presentations.removeAll { $0 === container }
        if let popup = container.popup {
            container.popup = nil
            popup.dismiss()
        }
        popoverPresentationController?.popup = nil
        viewIfLoaded?.removeFromSuperview()
        presentation = nil
        presentingViewController = nil
        presenter.presentedViewController = nil
        endAppearanceTransition()
        if !container.style.isSheet { presenter.endAppearanceTransition() }
        if let previous = container.previousFirstResponder as? View, previous.window != nil {
            // Still its window's first responder (the keys were in a popover's popup):
            // assistive technologies are told the focus is back on it.
            if previous.isFirstResponder {
                Application.shared.accessibilityExporter?.focusMoved(from: nil, to: previous.accessibilityFocusObject)
            } else {
                previous.becomeFirstResponder()
            }
        }
        completion?()
    }

    /// A sheet dragged down (rule C1 for a cancelled drag): the card follows the
    /// finger; released past half way — or flung down — it is dismissed,
    /// otherwise it springs back with the appearance calls reversed.
    func sheetPanned(_ pan: PanGestureRecognizer) {
        guard let container = presentation, let presenter = presentingViewController else { return }
        let travel = container.bounds.height - container.cardFrame(in: container.bounds).minY
        switch pan.state {
        case .began:
            beginDismissal(animated: true)
            let animator = ViewPropertyAnimator(duration: PresentationContainer.duration, curve: .linear) { container.setShown(false) }
            animator.addCompletion { [weak self] position in
                container.dragAnimator = nil
                guard let self else { return }
                if position == .end { return endDismissal(presenter: presenter, container: container, completion: nil) }
                container.isDismissing = false
                beginAppearanceTransition(true, animated: true)
                endAppearanceTransition()
            }
            animator.pauseAnimation()
            container.dragAnimator = animator
        case .changed:
            container.dragAnimator?.scrub(pan.translation(in: container).y, of: travel)
        case .ended, .cancelled:
            guard let animator = container.dragAnimator, !animator.isRunning else { return }
            animator.release(speed: pan.velocity(in: container).y, ended: pan.state == .ended)
        case .possible, .failed:
            break
        }
    }

    /// Shows `controller` the way this controller's context shows things
    /// (`show(_:sender:)`): pushed when a navigation controller holds this one,
    /// else presented modally.
    public func show(_ controller: ViewController, sender: Any?) {
        if let navigation = self as? NavigationController ?? navigationController {
            navigation.pushViewController(controller, animated: true)
        } else {
            present(controller, animated: true)
        }
    }

    /// Whether `other` is this controller or one of its children, at any depth.
    /// Whether `other` is this controller or holds it: reached going up through
    /// parents and presenters. Presenting or adding such a one would close a cycle
    /// (found by the controller fuzzer: a navigation controller no longer a window's
    /// root was presented from a controller in its own stack). The walk is bounded,
    /// so even a cycle could not hang it.
    func isHeld(by other: ViewController) -> Bool {
        var c: ViewController? = self
        for _ in 0..<100_000 {
            guard let x = c else { return false }
            if x === other { return true }
            c = x.parent ?? x.presentingViewController
        }
        return true
    }

    func isAncestor(of other: ViewController) -> Bool {
        var c: ViewController? = other
        while let x = c {
            if x === self { return true }
            c = x.parent
        }
        return false
    }
}
