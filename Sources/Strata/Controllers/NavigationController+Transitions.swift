import LayerKit

extension NavigationController {
    /// Runs a push or pop: appearance calls, the slide (a block animation, a
    /// paused property animator the pan scrubs when interactive, or none), and
    /// the end — or, for a cancelled interactive pop, the calls reversed.
    func run(_ t: Transition, animated: Bool, interactive: Bool) {
        transition = t
        let (from, to) = (t.from, t.to)
        to.loadViewIfNeeded()
        if !t.isPush { viewControllers.removeAll { $0 === from } }
        updateBar()
        guard isViewLoaded else { return finish(t, completed: true) }
        // Shown only while the navigation controller itself is.
        let visible = isAppearingOrVisible
        if visible {
            from.beginAppearanceTransition(false, animated: animated)
            to.beginAppearanceTransition(true, animated: animated)
        }
        let width = content.bounds.width * leadingSign
        // With reduce motion a push or pop that is not the person's swipe cross-fades in place (rule P4).
        let fades = animated && !interactive && content.reducesMotion
        Transaction.withoutActions {
            to.view.bounds = Rect(origin: .zero, size: content.bounds.size)
            to.view.center = Point(x: content.bounds.midX, y: content.bounds.midY)
            if t.isPush || from.viewIfLoaded?.superview !== content {
                content.addSubview(to.view)
            } else {
                content.insertSubview(to.view, belowSubview: from.view)
            }
            to.view.transform = fades ? .identity : AffineTransform(translationX: t.isPush ? width : -width * Self.parallax, y: 0)
            if fades { to.view.alpha = 0 }
        }
        let slide = { [self] in
            // The bar and the content take the new top's layout in the same motion: a
            // large title grows or shrinks with the slide, as in UIKit.
            view.setNeedsLayout()
            view.layoutIfNeeded()
            if fades {
                to.view.alpha = 1
                from.viewIfLoaded?.alpha = 0
            } else {
                to.view.transform = .identity
                from.viewIfLoaded?.transform = AffineTransform(translationX: t.isPush ? -width * Self.parallax : width, y: 0)
            }
        }
        if !animated {
            Transaction.withoutActions(slide)
            finish(t, completed: true)
        } else if interactive {
            let animator = ViewPropertyAnimator(duration: Self.transitionDuration, curve: .linear, animations: slide)
            animator.addCompletion { [weak self] position in self?.finish(t, completed: position == .end) }
            animator.pauseAnimation()
            transition?.animator = animator
        } else {
            View.animate(duration: Self.transitionDuration, delay: 0, options: [.curveEaseInOut], slide) { [weak self] _ in
                self?.finish(t, completed: true)
            }
        }
    }

    /// The end of a transition: the controller underneath leaves the view; or,
    /// when an interactive pop was cancelled, the popped one stays on top.
    private func finish(_ t: Transition, completed: Bool) {
        let (from, to) = (t.from, t.to)
        let visible = isAppearingOrVisible || from.isAppearingOrVisible
        if completed {
            Transaction.withoutActions {
                from.viewIfLoaded?.removeFromSuperview()
                from.viewIfLoaded?.transform = .identity
                from.viewIfLoaded?.alpha = 1
            }
            if visible {
                from.endAppearanceTransition()
                to.endAppearanceTransition()
            }
            if t.isPush { to.didMove(toParent: self) } else { from.removeFromParent() }
        } else {
            if visible {
                to.beginAppearanceTransition(false, animated: true)
                from.beginAppearanceTransition(true, animated: true)
                to.endAppearanceTransition()
                from.endAppearanceTransition()
            }
            Transaction.withoutActions {
                to.viewIfLoaded?.removeFromSuperview()
                to.viewIfLoaded?.transform = .identity
                from.viewIfLoaded?.transform = .identity
            }
            viewControllers.append(from)
            from.didMove(toParent: self)
            updateBar()
        }
        transition = nil
        // Laid out again for the top now: a large title that faded out is hidden, and a
        // cancelled swipe's bar is the one of the controller that stayed.
        viewIfLoaded?.setNeedsLayout()
        navigationBar.setNeedsLayout()
        let next = pending
        pending = []
        for request in next { request() }
    }

    /// The pan from the leading edge: starts an interactive pop, scrubs it with
    /// the finger, and on release finishes it — past half way or flung forward —
    /// or cancels it.
    func interactivePop(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            guard viewControllers.count > 1, transition == nil else { return }
            startPop(to: viewControllers[viewControllers.count - 2], animated: true, interactive: true)
        case .changed:
            transition?.animator?.scrub(pan.translation(in: view).x * leadingSign, of: content.bounds.width)
        case .ended, .cancelled:
            transition?.animator?.release(speed: pan.velocity(in: view).x * leadingSign, ended: pan.state == .ended)
        case .possible, .failed:
            break
        }
    }
}
