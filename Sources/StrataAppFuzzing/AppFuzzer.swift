import Strata
import StrataFuzzing
import StrataTesting
import WaylandClient

/// Turns fuzzer bytes into an app program over Strata's public API — view trees
/// in an offscreen window with labels (any Unicode, long unbreakable runs),
/// stack, scroll and list views, controls, animation blocks and property
/// animators, tree edits from hooks and completions, simulated input and
/// snapshots — and checks what every such program must keep: no crash, no NaN or
/// ∞ in a presentation frame, a consistent tree (each subview's superview and
/// layer agree), no step taking longer than ``stepBudget``, and nothing left
/// alive after the window closed: the program's own closures hold the window
/// and views weakly, as careful app code does, so whatever survives was kept by
/// the toolkit. `strata-fuzz app`
/// runs it under libFuzzer with AddressSanitizer; the tests replay the committed
/// corpus (`Tests/Fuzz/app-corpus`) without them.
@MainActor
public enum AppFuzzer {
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    public static let maximumViews = 40
    public static let maximumSteps = 120
    /// Seconds one step may take in an optimized build (the fuzzer's); a debug
    /// build replaying the corpus on a busy machine passes a larger budget.
    public static let stepBudget = 2.0

    /// Runs the program `bytes` spell; throws the first property it breaks.
    public static func run(_ bytes: [UInt8], stepBudget: Double = stepBudget, trace: ((String) -> Void)? = nil) throws(Violation) {
        try session { window, clock, made throws(Violation) in
            try program(bytes, window, clock, stepBudget: stepBudget, trace: trace, made: made)
        }
    }

    /// Runs `body` with a shown offscreen window on a manual clock at t = 100,
    /// no open transactions and diagnostics silenced (hostile values are refused
    /// with diagnostics: expected); closes the window, then checks that nothing
    /// the body said it `made` (the window included) is still alive.
    static func session(_ body: @MainActor (Window, ManualMediaClock, (AnyObject) -> Void) throws(Violation) -> Void) throws(Violation) {
        final class Weak {
            weak var object: AnyObject?
            init(_ object: AnyObject) { self.object = object }
        }
        var made: [Weak] = []
        do {
            let clock = ManualMediaClock(now: 100)
            let previousClock = MediaTime.clock
            MediaTime.clock = clock
            Transaction.reset()
            AnimationTimeline.reset()
            Transaction.endOfTurnScheduler = { _ in }
            let previousHandler = Diagnostics.handler
            Diagnostics.handler = { _ in }
            defer {
                Diagnostics.handler = previousHandler
                MediaTime.clock = previousClock
            }
            let window = Window(title: "fuzz", size: Size(width: 96, height: 72))
            window.show()
            made.append(Weak(window))
            defer { window.close() }
            try body(window, clock) { made.append(Weak($0)) }
        }
        if let alive = made.lazy.compactMap(\.object).first {
            throw Violation(description: "a \(type(of: alive)) outlived its closed window and the program")
        }
    }

    /// The program itself; `made` sees every view it makes.
    private static func program(_ bytes: [UInt8], _ window: Window, _ clock: ManualMediaClock, stepBudget: Double,
                                trace: ((String) -> Void)?, made: (AnyObject) -> Void) throws(Violation) {
        var input = FuzzReader(bytes: bytes)
        let driver = InputDriver(window: window)
        var views: [View] = [window.rootView]
        var animators: [ViewPropertyAnimator] = []
        var dataSources: [AnyObject] = []   // a list's data source is weak: kept here
        var constraintsMade: [LayoutConstraint] = []
        var steps = 0
        while !input.isAtEnd, steps < maximumSteps {
            steps += 1
            let target = views[input.index(views.count)]
            let op = input.byte() % 14
            trace?("step \(steps): op \(op) on view \(views.firstIndex { $0 === target }!)")
            let started = MonotonicClock.now
            switch op {
            case 0 where views.count < maximumViews:
                let child = makeView(&input, keeping: &dataSources, trace: trace)
                child.frame = input.rect()
                trace?("  new \(type(of: child)) frame \(child.frame)")
                if let hooked = child as? HookedView {
                    let kind = input.byte()
                    hooked.edit = { [unowned window] in edit(window.rootView, kind) }
                }
                if input.byte() % 3 == 0, let stack = target as? StackView { stack.addArrangedSubview(child) } else {
                    target.insertSubview(child, at: Int(input.byte() % 6) - 1)
                }
                views.append(child)
                made(child)
            case 1 where target !== window.rootView:
                target.removeFromSuperview()
            case 2:
                let other = views[input.index(views.count)]
                other.addSubview(target)   // cycles must be refused
            case 3:
                let frame = input.rect(), alpha = input.number(), color = input.color()
                let removesWhenDone = input.byte() % 2 == 0
                trace?("  block: frame \(frame) alpha \(alpha)")
                View.animate(duration: input.number(), delay: input.byte() % 3 == 0 ? input.number() : 0,
                             options: input.byte() % 2 == 0 ? [.curveLinear] : [.repeat, .autoreverse], {
                                 target.frame = frame
                                 target.alpha = alpha
                                 target.backgroundColor = color
                             }, completion: { [weak window, weak target] _ in
                                 guard let window, let target else { return }
                                 if removesWhenDone { target.removeFromSuperview() } else { window.rootView.addSubview(target) }
                             })
            case 4:
                let damping = input.number(), frame = input.rect(), duration = input.number(), velocity = input.number()
                trace?("  spring: frame \(frame) duration \(duration) damping \(damping) velocity \(velocity)")
                View.animate(duration: duration, dampingRatio: damping, initialVelocity: velocity) {
                    target.frame = frame
                }
            case 5:
                let frame = input.rect(), duration = input.number(), damping = input.number()
                let animator = ViewPropertyAnimator(duration: duration, dampingRatio: damping) { target.frame = frame }
                let how = input.byte() % 4, value = how == 0 ? 0 : input.number()
                trace?("  animator: frame \(frame) duration \(duration) damping \(damping); \(how) with \(value)")
                switch how {
                case 0: animator.startAnimation()
                case 1: animator.fractionComplete = value
                case 2: animator.startAnimation(); animator.pauseAnimation(); animator.fractionComplete = value
                default: animator.startAnimation(afterDelay: value)
                }
                animator.addCompletion { [weak target] _ in target?.isHidden.toggle() }
                animators.append(animator)
                if animators.count > 8 { animators.removeFirst().stopAnimation(true) }
            case 6:
                let animator = animators.isEmpty ? nil : animators[input.index(animators.count)]
                switch input.byte() % 3 {
                case 0: animator?.stopAnimation(input.byte() % 2 == 0)
                case 1: animator?.pauseAnimation()
                default: animator?.startAnimation()
                }
            case 7:
                configure(target, &input, trace: trace)
                trace?("  configured: transform \(target.transform) bounds \(target.bounds)")
            case 8:
                let a = input.point(), b = input.point(), kind = input.byte() % 5
                trace?("  input \(kind) from \(a) to \(b)")
                switch kind {
                case 0: driver.click(at: a)
                case 1: driver.drag(from: a, to: b, steps: 1 + Int(input.byte() % 8), clock: clock)
                case 2: driver.touchDown(1, at: a); driver.touchMove(1, to: b); driver.touchUp(1)
                case 3: driver.scroll(dx: input.number(), dy: input.number())
                // A key event per Unicode scalar (a character may carry hundreds
                // of marks), each laying out a field's window again: 16 keys a step.
                default: driver.type(String(String.UnicodeScalarView(input.text(16).unicodeScalars.prefix(16))))
                }
            case 9:
                let step = [0, 1.0 / 60, 0.1, 0.5, 2, 1e6][input.index(6)]
                trace?("  advance \(step)")
                Transaction.flush()
                clock.advance(by: step)
            case 10:
                try check(window, views, at: clock.now)
            case 11:
                menus(&input, target, window, driver, made: made, trace: trace)
            case 12:
                constraints(&input, target, views, &constraintsMade, trace: trace)
            default:
                window.rootView.layoutIfNeeded()
                Transaction.flush()
            }
            let took = MonotonicClock.now - started
            if took > stepBudget { throw Violation(description: "step \(steps) (op \(op)) took \(took) s") }
        }
        Transaction.flush()
        try check(window, views, at: clock.now)
        clock.advance(by: 1000)
        try check(window, views, at: clock.now)
        for animator in animators { animator.stopAnimation(true) }
    }

    /// Menus, tooltips and menu buttons (issue 23): context menus with items,
    /// submenus, deferred elements and handlers that edit the tree or close the
    /// window; secondary clicks, keys, tooltips after a rest, pull-down and pop-up
    /// buttons.
    private static func menus(_ input: inout FuzzReader, _ target: View, _ window: Window, _ driver: InputDriver,
                              made: (AnyObject) -> Void, trace: ((String) -> Void)?) {
        let kind = input.byte() % 6
        trace?("  menus \(kind)")
        switch kind {
        case 0:
            let items = makeMenu(&input, depth: 0, target: target, window: window)
            let interaction = ContextMenuInteraction { _ in Menu(title: "fuzz", children: items) }
            target.addInteraction(interaction)
            made(interaction)
        case 1:
            driver.movePointer(to: input.point())
            driver.press(.right)
            driver.release(.right)
        case 2:
            let keys: [UInt32] = [0xff54, 0xff52, 0xff0d, 0xff1b, 0xff53, 0xff51, 0xff50, 0xff57, Key.menu, 0x20, 0x61]
            for _ in 0..<(1 + Int(input.byte() % 4)) {
                let k = keys[input.index(keys.count)]
                driver.pressKey(keysym: k)
                driver.releaseKey(keysym: k)
            }
        case 3:
            let tip = ToolTipInteraction(defaultToolTip: input.text(8))
            target.addInteraction(tip)
            made(tip)
            driver.movePointer(to: input.point())
        case 4:
            let button = Button(title: input.text(4))
            button.frame = input.rect()
            button.menu = Menu(children: makeMenu(&input, depth: 1, target: target, window: window))
            if input.byte() % 2 == 0 { button.changesSelectionAsPrimaryAction = true } else { button.showsMenuAsPrimaryAction = true }
            target.addSubview(button)
            made(button)
        default:
            for i in target.interactions where input.byte() % 2 == 0 { target.removeInteraction(i) }
        }
    }

    /// Up to six elements: actions (some disabled or hidden, some that remove the
    /// view or close the window when chosen), inline groups, submenus, deferred ones.
    private static func makeMenu(_ input: inout FuzzReader, depth: Int, target: View, window: Window) -> [MenuElement] {
        (0..<Int(input.byte() % 7)).map { i -> MenuElement in
            switch input.byte() % 6 {
            case 0 where depth < 4:
                return Menu(title: input.text(4), options: input.byte() % 2 == 0 ? .displayInline : .singleSelection,
                            children: makeMenu(&input, depth: depth + 1, target: target, window: window))
            case 1:
                let effect = input.byte() % 3
                return MenuAction(title: "\(i)", attributes: input.byte() % 3 == 0 ? .disabled : []) { [weak target, weak window] _ in
                    if effect == 1 { target?.removeFromSuperview() }
                    if effect == 2 { window?.close(); window?.show() }
                }
            case 2:
                let items = [MenuAction(title: "later") { _ in }]
                return input.byte() % 2 == 0 ? DeferredMenuElement { $0(items) } : DeferredMenuElement.uncached { _ in }
            case 3:
                return MenuAction(title: input.text(6), attributes: .hidden) { _ in }
            default:
                return MenuAction(title: input.text(6), state: input.byte() % 2 == 0 ? .on : .off) { _ in }
            }
        }
    }

    /// A snapshot, finite presentation frames, and a tree whose links agree.
    static func check(_ window: Window, _ views: [View], at time: Double) throws(Violation) {
        _ = window.snapshot(atTime: time)
        for view in views {
            // The stored values: a frame worked out from huge finite ones may overflow,
            // as Core Animation's would.
            if let shown = view.layer.presentation() {
                let p = shown.position, b = shown.bounds, t = shown.transform
                let numbers = [p.x, p.y, b.origin.x, b.origin.y, b.size.width, b.size.height, shown.opacity,
                               t.m11, t.m12, t.m21, t.m22, t.m41, t.m42]
                if let bad = numbers.first(where: { !$0.isFinite }) {
                    let animations = view.layer.animationKeys.map { key in
                        let a = view.layer.animation(forKey: key)
                        let spring = (a as? SpringAnimation).map { " m \($0.mass) k \($0.stiffness) c \($0.damping) v \($0.initialVelocity)" } ?? ""
                        let basic = (a as? BasicAnimation).map { " from \(String(describing: $0.fromValue)) to \(String(describing: $0.toValue)) by \(String(describing: $0.byValue)) additive \($0.isAdditive)" } ?? ""
                        return "\(key): \(a.map { String(describing: type(of: $0)) } ?? "-") d \(a?.duration ?? 0) begin \(a?.beginTime ?? 0)\(spring)\(basic)"
                    }
                    throw Violation(description: "a presentation value is \(bad): position \(p), bounds \(b), opacity \(shown.opacity); model position \(view.layer.position); animations \(animations)")
                }
            }
            for sub in view.subviews {
                if sub.superview !== view || sub.layer.superlayer !== view.layer {
                    throw Violation(description: "a subview's superview or layer disagrees with its place in subviews")
                }
            }
            if let parent = view.superview, !parent.subviews.contains(where: { $0 === view }) {
                throw Violation(description: "a view names a superview that does not list it")
            }
        }
        if let problem = window.rootView.layer.checkInvariants().first {
            throw Violation(description: "layer tree: \(problem)")
        }
    }

    private static func makeView(_ input: inout FuzzReader, keeping dataSources: inout [AnyObject], trace: ((String) -> Void)?) -> View {
        switch input.byte() % 14 {
        case 0:
            let label = Label(frame: .zero)
            label.text = input.text(Int(input.byte()) * 8)
            label.numberOfLines = Int(input.byte() % 4)
            trace?("  label \(label.text?.unicodeScalars.count ?? 0) scalars, \(label.text?.utf8.count ?? 0) bytes, \(label.numberOfLines) lines: \(String(label.text?.unicodeScalars.prefix(40).map { String($0.value, radix: 16) }.joined(separator: " ") ?? ""))")
            return label
        case 1: return StackView(arrangedSubviews: [])
        case 2:
            let scroll = ScrollView(frame: .zero)
            scroll.contentSize = Size(width: input.number(), height: input.number())
            return scroll
        case 3:
            let list = ListView(frame: .zero)
            list.rowHeight = input.number()
            let rows = FuzzRows(count: Int(input.byte()) * Int(input.byte()))
            list.dataSource = rows
            dataSources.append(rows)
            return list
        case 4: return Switch()
        case 5:
            let slider = Slider()
            slider.value = input.number()
            return slider
        case 6: return Button(title: input.text(6))
        case 7:
            let field = TextField(frame: .zero)
            field.text = input.text(Int(input.byte()))
            return field
        case 8: return HookedView(frame: .zero)
        case 9:
            // A text layer (issue 28): any text, size, wrapping, truncation and alignment.
            let view = View(frame: .zero)
            let text = TextLayer()
            text.string = input.text(Int(input.byte()) * 4)
            text.fontSize = input.number()
            text.isWrapped = input.byte() % 2 == 0
            text.truncationMode = [.none, .start, .end, .middle][input.index(4)]
            text.alignmentMode = [.natural, .left, .right, .center, .justified][input.index(5)]
            text.frame = input.rect()
            text.contentsScale = input.number()
            view.layer.addSublayer(text)
            return view
        case 10:
            let blur = VisualEffectView(effect: input.byte() % 3 == 0 ? nil : BlurEffect(style: .systemMaterial))
            blur.contentView.addSubview(Label(frame: input.rect()))
            return blur
        case 11:
            // A collection view (issue 27): a list or a grid, fed by snapshots.
            let list = input.byte() % 2 == 0
            let layout: CollectionViewLayout
            if list {
                let l = CollectionViewListLayout(appearance: input.byte() % 2 == 0 ? .plain : .insetGrouped)
                l.rowHeight = input.byte() % 2 == 0 ? 0 : input.number()
                l.estimatedRowHeight = input.number()
                layout = l
            } else {
                let f = CollectionViewFlowLayout()
                f.itemSize = Size(width: input.number(), height: input.number())
                f.minimumLineSpacing = input.number()
                f.minimumInteritemSpacing = input.number()
                f.sectionInset = EdgeInsets(top: input.number(), left: input.number(), bottom: input.number(), right: input.number())
                f.headerReferenceSize = Size(width: 0, height: input.number())
                layout = f
            }
            let cv = CollectionView(frame: .zero, collectionViewLayout: layout)
            let registration = CellRegistration<CollectionViewCell, Int> { cell, _, item in cell.textLabel.text = "\(item)" }
            let source = CollectionViewDiffableDataSource<Int, Int>(collectionView: cv) { cv, path, item in
                cv.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
            }
            source.apply(snapshot(&input), animatingDifferences: false)
            dataSources.append(source)
            trace?("  collection view: \(list ? "list" : "grid") of \(source.snapshot().numberOfItems) items")
            return cv
        case 12:
            // A text view (issue 27): any text, attributes over any ranges, any insets and font.
            let view = TextView(frame: .zero)
            var text = AttributedText(input.text(Int(input.byte()) * 16))
            for _ in 0..<Int(input.byte() % 4) {
                let u = text.string.utf8
                let a = u.index(u.startIndex, offsetBy: input.index(u.count + 1)), b = u.index(u.startIndex, offsetBy: input.index(u.count + 1))
                text.setAttributes(.init(font: .systemFont(ofSize: input.number()), color: .systemRed), range: min(a, b)..<max(a, b))
            }
            view.attributedText = text
            view.font = .systemFont(ofSize: input.number())
            view.textContainerInset = EdgeInsets(top: input.number(), left: input.number(), bottom: input.number(), right: input.number())
            view.isEditable = input.byte() % 4 != 0
            if input.byte() % 3 == 0 { view.setMarkedText(input.text(4)) }
            trace?("  text view \(text.string.utf8.count) bytes, editable \(view.isEditable)")
            return view
        default: return View(frame: .zero)
        }
    }

    /// Sections and items from the input, duplicates and all (they are refused).
    static func snapshot(_ input: inout FuzzReader) -> DiffableDataSourceSnapshot<Int, Int> {
        var s = DiffableDataSourceSnapshot<Int, Int>()
        s.appendSections((0..<Int(input.byte() % 4)).map { $0 })
        for _ in 0..<Int(input.byte() % 8) {
            let items = (0..<Int(input.byte() % 64)).map { _ in Int(input.byte()) * 4 + Int(input.byte() % 4) }
            if s.numberOfSections > 0 { s.appendItems(items, toSection: s.sectionIdentifiers[input.index(s.numberOfSections)]) }
        }
        if input.byte() % 3 == 0, let item = s.itemIdentifiers.first { s.reloadItems([item]) }
        return s
    }

    /// Auto Layout (issue 27): constraints between any two views the program made —
    /// any attributes, relations, multipliers, constants and priorities — activated,
    /// deactivated, or changed in an animation block; views taken off or put back
    /// under their mask.
    private static func constraints(_ input: inout FuzzReader, _ target: View, _ views: [View], _ made: inout [LayoutConstraint],
                                    trace: ((String) -> Void)?) {
        let attributes: [LayoutAttribute] = [.left, .right, .top, .bottom, .leading, .trailing, .width, .height, .centerX, .centerY,
                                             .firstBaseline, .lastBaseline, .notAnAttribute]
        switch input.byte() % 5 {
        case 0, 1:
            let other = views[input.index(views.count)]
            let c = LayoutConstraint(item: target, attribute: attributes[input.index(attributes.count)],
                                     relatedBy: [.equal, .lessThanOrEqual, .greaterThanOrEqual][input.index(3)],
                                     toItem: input.byte() % 4 == 0 ? nil : other, attribute: attributes[input.index(attributes.count)],
                                     multiplier: input.byte() % 2 == 0 ? 1 : input.number(), constant: input.number())
            c.priority = input.byte() % 2 == 0 ? .required : LayoutPriority(Float(input.number()))
            c.isActive = true
            trace?("  constraint \(c) active \(c.isActive)")
            made.append(c)
            if made.count > 64 { made.removeFirst().isActive = false }
        case 2:
            target.translatesAutoresizingMaskIntoConstraints.toggle()
        case 3:
            guard !made.isEmpty else { return }
            let c = made[input.index(made.count)]
            let constant = input.number(), animated = input.byte() % 2 == 0
            trace?("  constant of \(c) to \(constant)\(animated ? ", animated" : "")")
            if animated {
                View.animate(duration: input.number()) {
                    c.constant = constant
                    target.window?.rootView.layoutIfNeeded()
                }
            } else {
                c.constant = constant
            }
        default:
            guard !made.isEmpty else { return }
            made.remove(at: input.index(made.count)).isActive = false
        }
    }

    private static func configure(_ view: View, _ input: inout FuzzReader, trace: ((String) -> Void)?) {
        switch input.byte() % 9 {
        case 7:
            // A collection view's next snapshot, animated or not.
            if let cv = view as? CollectionView, let source = cv.dataSource as? CollectionViewDiffableDataSource<Int, Int> {
                source.apply(snapshot(&input), animatingDifferences: input.byte() % 2 == 0)
            } else {
                (view as? CollectionView)?.reloadData()
            }
        case 0: view.transform = AffineTransform(a: input.number(), b: input.number(), c: input.number(), d: input.number(), tx: input.number(), ty: input.number())
        case 1: view.bounds = input.rect()
        case 2: (view as? Label)?.font = .systemFont(ofSize: input.number())
        case 3: (view as? ScrollView)?.setContentOffset(input.point(), animated: input.byte() % 2 == 0)
        case 4: (view as? StackView)?.spacing = input.number()
        case 5: (view as? Switch)?.setOn(input.byte() % 2 == 0, animated: true)
        case 6: (view as? ListView)?.reloadData()
        default: view.layer.cornerRadius = input.number()
        }
    }

    /// A hook edits the tree while a view is being added or removed.
    static func edit(_ root: View, _ kind: UInt8) {
        switch kind % 3 {
        case 0: root.addSubview(View(frame: .zero))
        case 1: root.subviews.last?.removeFromSuperview()
        default: root.subviews.first.map { root.bringSubviewToFront($0) }
        }
    }
}

/// A view whose hooks edit the tree (once each).
@MainActor
final class HookedView: View {
    var edit: (() -> Void)?
    override func willMove(toWindow newWindow: Window?) {
        let e = edit
        edit = nil
        e?()
    }
    override func willMove(toSuperview newSuperview: View?) {
        guard newSuperview == nil else { return }
        let e = edit
        edit = nil
        e?()
    }
}

@MainActor
final class FuzzRows: ListDataSource {
    let count: Int
    init(count: Int) { self.count = count }
    func numberOfRows(in list: ListView) -> Int { count }
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.textLabel.text = "row \(row)" }
}

/// The app fuzzer's own values.
extension FuzzReader {
    mutating func color() -> Color { Color(red: Double(byte()) / 255, green: Double(byte()) / 255, blue: Double(byte()) / 255, alpha: 1) }

    /// Pieces text is made of: scripts, emoji, marks, controls, and runs with no
    /// place to break.
    static let pieces: [String] = ["a", "Hello ", "word ", "\u{301}", "\u{301}\u{302}\u{303}\u{304}", "مرحبا ", "שלום ", "नमस्ते ", "漢字",
                                   "😀", "👩‍👩‍👧", "🇫🇷", "\u{0}", "\n", "\t", "\u{200B}", "\u{202E}", "𒀀𒀁𒀂", "\u{FFFD}"]

    /// Up to `count` pieces; a piece may repeat hundreds of times (long runs).
    mutating func text(_ count: Int) -> String {
        var s = ""
        for _ in 0..<count {
            guard !isAtEnd else { break }
            let piece = Self.pieces[index(Self.pieces.count)]
            s += byte() % 8 == 0 ? String(repeating: piece, count: 1 + Int(byte()) * 4) : piece
        }
        return s
    }
}
