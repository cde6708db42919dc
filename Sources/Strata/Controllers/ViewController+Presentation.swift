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
    /// Refused with a diagnostic, as UIKit refuses them: presenting while already
    /// presenting, presenting a controller that is presented, a child or this
    /// controller itself, presenting from a controller being dismissed, and from a
    /// controller whose view is in no window.
    public func present(_ controller: ViewController, animated: Bool, completion: (() -> Void)? = nil) {
        guard presentedViewController == nil else {
            return Diagnostics.report(.invalidView("present: this view controller is already presenting one; dismiss it first"))
        }
        guard presentation?.isDismissing != true else {
            return Diagnostics.report(.invalidView("present: this view controller is being dismissed"))
        }
        guard controller !== self, controller.presentingViewController == nil, controller.parent == nil,
              controller.hostWindow == nil, !isAncestor(of: controller) else {
            return Diagnostics.report(.invalidView("present: the view controller is already shown (presented, a child, a window's root or this one)"))
        }
        guard let window = viewIfLoaded?.window else {
            return Diagnostics.report(.invalidView("present: the presenting view controller's view is in no window"))
        }
        if controller.modalPresentationStyle == .popover {
            Diagnostics.report(.invalidView("present: popovers are shown as form sheets until they have popup surfaces"))
        }
        controller.loadViewIfNeeded()
        let container = PresentationContainer(presenting: controller, style: controller.modalPresentationStyle)
        presentedViewController = controller
        controller.presentingViewController = self
        controller.presentation = container
        container.onClickOutside = { [weak controller] in
            guard let controller, !controller.isModalInPresentation else { return }
            controller.dismiss(animated: true)
        }
        let coversPresenter = !container.style.isSheet
        if coversPresenter { beginAppearanceTransition(false, animated: animated) }
        controller.beginAppearanceTransition(true, animated: animated)
        Transaction.withoutActions {
            container.frame = window.rootView.bounds
            window.rootView.addSubview(container)
            container.layoutIfNeeded()
            container.setShown(!animated, entering: true)
        }
        window.presentations.append(container)
        container.previousFirstResponder = window.firstResponder
        controller.didEnterPresentation()
        let finish = { [weak self] in
            if coversPresenter { self?.endAppearanceTransition() }
            controller.endAppearanceTransition()
            completion?()
        }
        guard animated else { return finish() }
        View.animate(duration: PresentationContainer.duration, delay: 0, options: [.curveEaseInOut], {
            container.setShown(true)
        }, completion: { _ in finish() })
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
        if let above = presentedViewController { above.dismissPresentation(animated: false, completion: nil) }
        container.isDismissing = true
        let uncoversPresenter = !container.style.isSheet
        beginAppearanceTransition(false, animated: animated)
        if uncoversPresenter { presenter.beginAppearanceTransition(true, animated: animated) }
        let finish = { [self] in
            let window = container.window
            Transaction.withoutActions { container.removeFromSuperview() }
            window?.presentations.removeAll { $0 === container }
            viewIfLoaded?.removeFromSuperview()
            presentation = nil
            presentingViewController = nil
            presenter.presentedViewController = nil
            endAppearanceTransition()
            if uncoversPresenter { presenter.endAppearanceTransition() }
            if let previous = container.previousFirstResponder as? View, previous.window != nil { previous.becomeFirstResponder() }
            completion?()
        }
        guard animated else { return finish() }
        View.animate(duration: PresentationContainer.duration, delay: 0, options: [.curveEaseInOut], {
            container.setShown(false)
        }, completion: { _ in finish() })
    }

    /// Whether `other` is this controller or one of its children, at any depth.
    func isAncestor(of other: ViewController) -> Bool {
        var c: ViewController? = other
        while let x = c {
            if x === self { return true }
            c = x.parent
        }
        return false
    }
}
