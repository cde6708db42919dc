import Glibc
import WaylandClient

extension ReportCardCheck {
    /// The checks, in the order the card lists them.
    public static let battery: [ReportCardCheck] = xdgShell + popups + timing + outputs + services + edgeCases

    static func check(_ area: String, _ name: String, _ run: @escaping @MainActor @Sendable (ReportCardContext) throws -> Verdict) -> ReportCardCheck {
        ReportCardCheck(name: name, area: area, run: run)
    }

    static func states(_ s: [UInt32]) -> String {
        let names: [UInt32: String] = [1: "maximized", 2: "fullscreen", 3: "resizing", 4: "activated", 5: "tiled-left", 6: "tiled-right",
                                       7: "tiled-top", 8: "tiled-bottom", 9: "suspended"]
        return s.isEmpty ? "none" : s.map { names[$0] ?? "\($0)" }.joined(separator: ",")
    }

    // MARK: xdg-shell

    static let xdgShell: [ReportCardCheck] = [
        check("xdg-shell", "first configure") { c in
            let w = TestToplevel(c, title: "first configure")
            guard try w.waitConfigure(after: 0) else { return .fail("no configure within 4 s of the first commit") }
            guard w.order.prefix(2) == ["toplevel", "surface"] else { return .fail("xdg_surface.configure came before the toplevel's") }
            let first = w.configures[0]
            return .pass("\(first.width)x\(first.height), states \(states(first.states))")
        },
        check("xdg-shell", "min and max size") { c in
            let w = TestToplevel(c, title: "fixed size") { t in
                t.setMinSize(width: 300, height: 200)
                t.setMaxSize(width: 300, height: 200)
            }
            guard try w.waitConfigure(after: 0) else { return .fail("no configure within 4 s") }
            let (width, height, _) = w.configures[0]
            guard (width, height) == (0, 0) || (width, height) == (300, 200) else {
                return .fail("configured outside the window's fixed size", detail: "\(width)x\(height) for 300x200")
            }
            return .pass(width == 0 ? "the client's choice (0x0)" : "300x200")
        },
        check("xdg-shell", "maximize") { c in
            let w = TestToplevel(c, title: "maximize")
            guard try w.map() else { return .fail("no configure within 4 s") }
            if let caps = w.capabilities, !caps.contains(2) { return .skip("the compositor says it cannot maximize (wm_capabilities)") }
            let before = w.serials.count
            w.toplevel.setMaximized()
            guard try w.waitConfigure(after: before) else { return .fail("no configure within 4 s of set_maximized") }
            guard w.lastStates.contains(1) else {
                if Set([5, 6, 7, 8]).isSubset(of: w.lastStates) { return .skip("a tiling compositor: the window is tiled on four edges instead") }
                return .fail("configured without the maximized state", detail: states(w.lastStates))
            }
            return .pass("\(w.configures.last!.width)x\(w.configures.last!.height)")
        },
        check("xdg-shell", "fullscreen") { c in
            let w = TestToplevel(c, title: "fullscreen")
            guard try w.map() else { return .fail("no configure within 4 s") }
            if let caps = w.capabilities, !caps.contains(3) { return .skip("the compositor says it cannot make windows fullscreen (wm_capabilities)") }
            let before = w.serials.count
            w.toplevel.setFullscreen(output: nil)
            guard try w.waitConfigure(after: before) else { return .fail("no configure within 4 s of set_fullscreen") }
            guard w.lastStates.contains(2) else { return .fail("configured without the fullscreen state", detail: states(w.lastStates)) }
            let size = (w.configures.last!.width, w.configures.last!.height)
            if let o = try c.output(), o.scale == 1, size != (o.shownSize.width, o.shownSize.height) {
                return .fail("the fullscreen size is not the output's", detail: "\(size.0)x\(size.1) on \(o.width)x\(o.height)")
            }
            return .pass("\(size.0)x\(size.1)")
        },
        check("xdg-shell", "tiled states") { c in
            guard c.display.wmBase.version >= 2 else { return .skip("its xdg_wm_base is version \(c.display.wmBase.version): tiled states came in 2") }
            let w = TestToplevel(c, title: "tiled")
            guard try w.map() else { return .fail("no configure within 4 s") }
            let before = w.serials.count
            w.toplevel.setMaximized()
            _ = try w.waitConfigure(after: before)
            let tiled = w.configures.flatMap(\.states).filter { (5...8).contains($0) }
            guard !tiled.isEmpty else { return .skip("no tiled state sent, maximized or not (a policy, not a fault)") }
            return .pass(states(Array(Set(tiled)).sorted()))
        },
        check("xdg-shell", "wm capabilities") { c in
            guard c.display.wmBase.version >= 5 else { return .skip("its xdg_wm_base is version \(c.display.wmBase.version): wm_capabilities came in 5") }
            let w = TestToplevel(c, title: "capabilities")
            guard try w.waitConfigure(after: 0) else { return .fail("no configure within 4 s") }
            guard let caps = w.capabilities else { return .fail("no wm_capabilities before the first configure") }
            let names = [1: "window menu", 2: "maximize", 3: "fullscreen", 4: "minimize"]
            return .pass(caps.isEmpty ? "none" : caps.map { names[Int($0)] ?? "\($0)" }.joined(separator: ", "))
        },
    ]

    // MARK: Popups

    static let popups: [ReportCardCheck] = [
        check("popups", "flipped at the edge") { c in
            // A toplevel as wide as the output (fullscreen), a popup asked to the right of
            // its right edge: flip_x must bring it back inside, to the left of the anchor.
            let w = TestToplevel(c, title: "popup parent")
            guard try w.map() else { return .fail("no configure within 4 s") }
            let before = w.serials.count
            w.toplevel.setFullscreen(output: nil)
            guard try w.waitConfigure(after: before), w.lastStates.contains(2) else { return .skip("the parent could not be made fullscreen") }
            try w.draw()
            var width = w.configures.last!.width
            if width == 0, let o = try c.output() { width = o.shownSize.width / o.scale }
            let positioner = c.display.wmBase.createPositioner()
            positioner.setSize(width: 100, height: 50)
            positioner.setAnchorRect(x: width - 10, y: 10, width: 10, height: 10)
            positioner.setAnchor(anchor: .right)
            positioner.setGravity(gravity: .right)
            positioner.setConstraintAdjustment(constraintAdjustment: XdgPositioner.ConstraintAdjustment.flipX.rawValue)
            let surface = c.display.compositor.createSurface()
            let xdg = c.display.wmBase.getXdgSurface(surface: surface)
            let popup = xdg.getPopup(parent: w.xdg, positioner: positioner)
            var placed: (Int32, Int32)?
            popup.onEvent = { if case let .configure(x, y, _, _) = $0 { placed = (x, y) } }
            c.keep(positioner, surface, xdg, popup)
            surface.commit()
            guard try c.wait(until: { placed != nil }) else { return .fail("no popup configure within 4 s") }
            let x = placed!.0
            guard x + 100 <= width else { return .fail("the popup was left past the output's edge", detail: "x \(x) in a \(width) wide parent") }
            return .pass("x \(x) (asked \(width))")
        },
        check("popups", "reposition") { c in
            guard c.display.wmBase.version >= 3 else { return .skip("its xdg_wm_base is version \(c.display.wmBase.version): reposition came in 3") }
            let w = TestToplevel(c, title: "reposition parent")
            guard try w.map() else { return .fail("no configure within 4 s") }
            @MainActor func positioner(_ x: Int32) -> XdgPositioner {
                let p = c.display.wmBase.createPositioner()
                p.setSize(width: 40, height: 30)
                p.setAnchorRect(x: x, y: 10, width: 1, height: 1)
                c.keep(p)
                return p
            }
            let surface = c.display.compositor.createSurface()
            let xdg = c.display.wmBase.getXdgSurface(surface: surface)
            let popup = xdg.getPopup(parent: w.xdg, positioner: positioner(10))
            var configures = 0, token: UInt32?
            popup.onEvent = { e in
                switch e {
                case .configure: configures += 1
                case let .repositioned(t): token = t
                default: break
                }
            }
            c.keep(surface, xdg, popup)
            surface.commit()
            guard try c.wait(until: { configures > 0 }) else { return .fail("no popup configure within 4 s") }
            popup.reposition(positioner: positioner(60), token: 42)
            guard try c.wait(until: { token != nil && configures > 1 }) else { return .fail("no repositioned event and configure within 4 s") }
            return token == 42 ? .pass() : .fail("repositioned with another token")
        },
    ]

    // MARK: Frames and timing

    static let timing: [ReportCardCheck] = [
        check("frames", "frame callbacks") { c in
            let w = TestToplevel(c, title: "frames")
            guard try w.map() else { return .fail("no configure within 4 s") }
            var done = 0
            let start = MonotonicClock.now
            while MonotonicClock.now - start < 1 {
                let callback = w.surface.frame()
                var arrived = false
                callback.onEvent = { _ in arrived = true }
                try w.draw()
                guard try c.wait(3, until: { arrived }) else { return .fail("a frame callback did not come within 3 s of its commit") }
                done += 1
            }
            return .pass("\(done) a second")
        },
        check("frames", "presentation feedback") { c in
            guard let presentation = c.display.presentation else { return .skip("wp_presentation is not offered") }
            let w = TestToplevel(c, title: "presentation")
            guard try w.map() else { return .fail("no configure within 4 s") }
            var outcome: String?
            var sequences: [UInt64] = []
            for _ in 0..<3 {
                let feedback = presentation.feedback(surface: w.surface)
                outcome = nil
                feedback.onEvent = { e in
                    switch e {
                    case let .presented(_, _, _, refresh, hi, lo, flags):
                        sequences.append(UInt64(hi) << 32 | UInt64(lo))
                        outcome = "refresh \(ClientRunner.seconds(Double(refresh) / 1e6)) ms, flags \(flags.rawValue)"
                    case .discarded: outcome = "discarded"
                    default: break
                    }
                }
                c.keep(feedback)
                try w.draw()
                guard try c.wait(3, until: { outcome != nil }) else { return .fail("no presented or discarded event within 3 s of a commit") }
            }
            guard zip(sequences, sequences.dropFirst()).allSatisfy({ $0 <= $1 }) else { return .fail("presentation sequence numbers went backwards") }
            return .pass(outcome)
        },
        check("frames", "buffer release") { c in
            // Three frames, each a new buffer: is the one before released by the time
            // the next frame callback comes (two buffers are then enough)?
            let w = TestToplevel(c, title: "release")
            guard try w.map() else { return .fail("no configure within 4 s") }
            var buffers: [ShmBuffer] = []
            var lateCount = 0
            for _ in 0..<4 {
                let callback = w.surface.frame()
                var arrived = false
                callback.onEvent = { _ in arrived = true }
                w.acknowledge()
                let buffer = try c.attachBuffer(to: w.surface, width: 200, height: 150)
                w.surface.commit()
                buffers.append(buffer)
                guard try c.wait(3, until: { arrived }) else { return .fail("no frame callback within 3 s") }
                // (The pool hands out a released buffer again: the one before may be this one.)
                if buffers.count >= 2, buffers[buffers.count - 2] !== buffer, buffers[buffers.count - 2].isBusy { lateCount += 1 }
            }
            guard try c.wait(3, until: { buffers.dropLast().allSatisfy { $0 === buffers.last || !$0.isBusy } }) else {
                return .fail("a replaced buffer was not released within 3 s")
            }
            return .pass(lateCount == 0 ? "released before the next frame callback: two buffers are enough"
                                        : "\(lateCount) of 3 released after the next frame callback: a third buffer helps")
        },
        check("frames", "callbacks while minimized") { c in
            // Minimized, a window is not shown: the compositor may hold its frame callbacks back.
            let w = TestToplevel(c, title: "minimized")
            guard try w.map() else { return .fail("no configure within 4 s") }
            if let caps = w.capabilities, !caps.contains(4) { return .skip("the compositor does not offer minimizing (wm_capabilities)") }
            w.toplevel.setMinimized()
            try c.display.connection.roundtrip(timeout: 5)
            _ = try c.wait(0.5) { false }   // the minimizing animation, where there is one
            let callback = w.surface.frame()
            var arrived = false
            callback.onEvent = { _ in arrived = true }
            c.keep(callback)
            try w.draw()
            return try c.wait(3, until: { arrived }) ? .pass("a minimized window still gets them")
                : .skip("held back while the window is minimized (allowed: it is not shown)")
        },
        check("frames", "callbacks while covered") { c in
            // A window under a fullscreen one: the compositor may hold its frame callbacks back.
            let below = TestToplevel(c, title: "below")
            guard try below.map() else { return .fail("no configure within 4 s") }
            let above = TestToplevel(c, title: "above") { $0.setFullscreen(output: nil) }
            guard try above.map() else { return .fail("no configure within 4 s for the covering window") }
            let callback = below.surface.frame()
            var arrived = false
            callback.onEvent = { _ in arrived = true }
            c.keep(callback)
            try below.draw()
            return try c.wait(3, until: { arrived }) ? .pass("a covered window still gets them")
                : .skip("held back while the window is covered (allowed: it is not shown)")
        },
    ]

    // MARK: Outputs and scale

    static let outputs: [ReportCardCheck] = [
        check("outputs", "output description") { c in
            guard let o = try c.output() else { return .fail("no wl_output described itself within 1 s") }
            guard o.width > 0, o.height > 0 else { return .fail("the output has no current mode") }
            return .pass("\(o.name ?? "unnamed") \(o.width)x\(o.height) at \(ClientRunner.seconds(Double(o.refresh) / 1000)) Hz, scale \(o.scale)")
        },
        check("outputs", "fractional scale") { c in
            guard let manager = c.display.fractionalScaleManager else { return .skip("wp_fractional_scale_manager_v1 is not offered") }
            let w = TestToplevel(c, title: "fractional")
            let fractional = manager.getFractionalScale(surface: w.surface)
            var scale: UInt32?
            fractional.onEvent = { if case let .preferredScale(s) = $0 { scale = s } }
            c.keep(fractional)
            guard try w.map() else { return .fail("no configure within 4 s") }
            guard try c.wait(until: { scale != nil }) else { return .fail("no preferred_scale within 4 s of mapping") }
            return .pass("\(ClientRunner.seconds(Double(scale!) / 120))")
        },
        check("outputs", "viewporter") { c in
            guard let viewporter = c.display.viewporter else { return .skip("wp_viewporter is not offered") }
            let w = TestToplevel(c, title: "viewport")
            let viewport = viewporter.getViewport(surface: w.surface)
            viewport.setDestination(width: 100, height: 100)
            c.keep(viewport)
            guard try w.map() else { return .fail("no configure within 4 s") }
            return .pass()
        },
        check("outputs", "decoration negotiation") { c in
            guard let manager = c.display.decorationManager else { return .skip("xdg-decoration is not offered: clients draw their own") }
            let w = TestToplevel(c, title: "decorations")
            let decoration = manager.getToplevelDecoration(toplevel: w.toplevel)
            var mode: ZxdgToplevelDecorationV1.Mode?
            decoration.onEvent = { if case let .configure(m) = $0 { mode = m } }
            decoration.setMode(mode: .serverSide)
            c.keep(decoration)
            guard try w.waitConfigure(after: 0), try c.wait(until: { mode != nil }) else { return .fail("no decoration configure with the first configure") }
            return .pass(mode == .serverSide ? "server-side when asked" : "client-side even when server-side was asked")
        },
    ]

    // MARK: Input, shell layers, captures

    static let services: [ReportCardCheck] = [
        check("input", "keyboard keymap and repeat") { c in
            _ = try c.wait(2) { !c.display.seats.isEmpty }
            guard let seat = c.display.seats.values.first else { return .skip("no wl_seat") }
            var rate: (Double, Double)?
            seat.onEvent = { if case let .repeatInfo(r, d) = $0 { rate = (r, d) } }
            _ = try c.wait(2) { seat.capabilities.contains(.keyboard) }
            // A headless seat may have no devices: the kit's injected input adds a keyboard where it can
            // (wlroots' virtual keyboard), which the compositor must then tell clients of like any other.
            var added = ""
            if !seat.capabilities.contains(.keyboard), (try? c.compositor.injectedInput()) != nil {
                _ = try c.wait(3) { seat.capabilities.contains(.keyboard) }
                added = " (the keyboard injected input added)"
            }
            guard seat.capabilities.contains(.keyboard) else { return .skip("the seat has no keyboard (no input devices)") }
            guard try c.wait(until: { seat.keyboard != nil }) else { return .fail("no keymap that compiles within 4 s" + added) }
            guard try c.wait(3, until: { rate != nil }) else {
                return seat.proxy.version >= 4 ? .fail("a keymap but no repeat_info within 3 s" + added)
                    : .pass("a keymap (wl_seat before version 4 sends no repeat rate)" + added)
            }
            return .pass("a keymap; repeat \(ClientRunner.seconds(rate!.0)) a second after \(ClientRunner.seconds(rate!.1)) s" + added)
        },
        check("input", "clipboard between two clients") { c in try selectionBetweenClients(c, kind: .clipboard) },
        check("input", "primary selection between two clients") { c in try selectionBetweenClients(c, kind: .primary) },
        check("input", "drag and drop between two clients") { c in try dragAndDropBetweenClients(c) },
        check("input", "text input with an input method") { c in try textInputFromAnInputMethod(c) },
        check("input", "cursor shapes") { c in
            c.display.cursorShapeManager == nil ? .skip("wp_cursor_shape_manager_v1 is not offered: clients draw their cursors") : .pass()
        },
        check("shell", "layer surface") { c in
            guard let shell = c.display.layerShell else { return .skip("zwlr_layer_shell_v1 is not offered") }
            let surface = c.display.compositor.createSurface()
            let layer = shell.getLayerSurface(surface: surface, output: nil, layer: .top, namespace: "strata-report-card")
            layer.setSize(width: 0, height: 30)
            layer.setAnchor(anchor: [.top, .left, .right])
            var size: (UInt32, UInt32)?
            layer.onEvent = { e in
                if case let .configure(serial, w, h) = e {
                    layer.ackConfigure(serial: serial)
                    size = (w, h)
                }
            }
            c.keep(surface, layer)
            surface.commit()
            guard try c.wait(until: { size != nil }) else { return .fail("no layer surface configure within 4 s") }
            return .pass("\(size!.0)x\(size!.1) for a bar across the top")
        },
        check("shell", "session lock") { c in
            guard let manager = c.display.sessionLockManager else { return .skip("ext_session_lock_manager_v1 is not offered") }
            let lock = manager.lock()
            var state: String?
            lock.onEvent = { e in
                switch e {
                case .locked: state = "locked"
                case .finished: state = "finished"
                }
            }
            c.keep(lock)
            try c.display.connection.flush()
            guard try c.wait(until: { state != nil }) else { return .fail("neither locked nor finished within 4 s") }
            if state == "locked" { lock.unlockAndDestroy() } else { lock.destroy() }
            try c.display.connection.roundtrip(timeout: 5)
            return state == "locked" ? .pass() : .fail("refused: finished without locking")
        },
        check("captures", "screen capture") { c in
            let globals = CompositorCapabilities(c.display).globals
            let paths = [("ext_image_copy_capture_manager_v1", "ext-image-copy-capture"), ("zwlr_screencopy_manager_v1", "wlroots screencopy"),
                         ("weston_screenshooter", "weston's screenshooter")].filter { globals[$0.0] != nil }.map(\.1)
            let shot = try c.compositor.screenshot(timeout: 30)
            guard shot.width > 0 else { return .fail("an empty capture") }
            return .pass("\(shot.width)x\(shot.height) through " + (paths.isEmpty ? "the compositor's D-Bus interface" : paths.joined(separator: ", ")))
        },
    ]

    /// One client takes the selection with the serial of a click on its
    /// window; another, clicked after, is offered it and reads the text.
    @MainActor
    static func selectionBetweenClients(_ c: ReportCardContext, kind: Clipboard.Kind) throws -> Verdict {
        let name = kind == .clipboard ? "wl_data_device_manager" : "zwp_primary_selection_device_manager_v1"
        guard kind == .clipboard ? c.display.dataDeviceManager != nil : c.display.primarySelectionManager != nil else {
            return .skip("\(name) is not offered")
        }
        guard let input = try? c.compositor.injectedInput() else {
            return .skip("no input to inject here: taking the selection needs an input event's serial")
        }
        let other = try c.secondClient()
        guard let seatA = try c.pointerSeat(), let seatB = try other.pointerSeat(), let o = try c.output() else {
            return .skip("no seat with a pointer, or no output")
        }
        func both(_ timeout: Double, until condition: () -> Bool) throws -> Bool { try c.wait(timeout, with: other, until: condition) }
        let middle = (Double(o.shownSize.width / o.scale) / 2, Double(o.shownSize.height / o.scale) / 2)
        func click(_ seat: Seat, dx: Double) throws -> Bool {
            let before = seat.lastSerial
            try input.movePointer(toX: middle.0 + dx, y: middle.1)
            try input.button(0x110, pressed: true)
            try input.button(0x110, pressed: false)
            return try both(4) { seat.lastSerial != before }
        }
        let text = "from another client ✓"
        let source = TestToplevel(c, title: "selection source") { $0.setFullscreen(output: nil) }
        guard try source.map() else { return .fail("no configure within 4 s") }
        let clipA = try Clipboard(display: c.display, seat: seatA, kind: kind)
        guard try click(seatA, dx: 0) else { return .fail("a click on the source's window brought it no serial") }
        clipA.setText(text, serial: seatA.lastSerial)
        let clipB = try Clipboard(display: other.display, seat: seatB, kind: kind)
        let reader = TestToplevel(other, title: "selection reader") { $0.setFullscreen(output: nil) }
        guard try reader.map() else { return .fail("no configure within 4 s for the reader") }
        guard try click(seatB, dx: 1) else { return .fail("a click on the reader's window brought it no serial") }
        guard try both(4, until: { clipB.offersText }) else { return .fail("the other client was not offered the selection") }
        var read: String??
        clipB.readText(timeout: 4) { result in read = .some(try? result.get() ?? nil) }
        guard try both(5, until: { read != nil }) else { return .fail("the text did not arrive") }
        guard read! == text else { return .fail("other text arrived", detail: read!.map { "\($0)" }) }
        withExtendedLifetime((clipA, clipB, other)) {}
        return .pass()
    }

    /// A window enables text-input-v3 on its seat; an input method — a second
    /// client of input-method-v2 — is activated for it and commits text, which
    /// arrives in the window's text input.
    @MainActor
    static func textInputFromAnInputMethod(_ c: ReportCardContext) throws -> Verdict {
        guard c.display.textInputManager != nil else { return .skip("zwp_text_input_manager_v3 is not offered") }
        let im = try c.secondClient()
        guard let manager = im.display.registry.bindIfOffered(ZwpInputMethodManagerV2.self) else {
            return .skip("text-input-v3 is offered, but not zwp_input_method_manager_v2: no input method client can run here")
        }
        _ = try c.wait(2) { c.display.seats.values.first?.textInput != nil }
        _ = try im.wait(2) { !im.display.seats.isEmpty }
        guard let textInput = c.display.seats.values.first?.textInput, let imSeat = im.display.seats.values.first else { return .skip("no wl_seat") }
        let method = manager.getInputMethod(seat: imSeat.proxy)
        var active = false, dones: UInt32 = 0, unavailable = false
        method.onEvent = { event in
            switch event {
            case .activate: active = true
            case .deactivate: active = false
            case .done: dones += 1
            case .unavailable: unavailable = true
            default: break
            }
        }
        im.keep(manager, method)
        let w = TestToplevel(c, title: "text input") { $0.setFullscreen(output: nil) }
        guard try w.map() else { return .fail("no configure within 4 s") }
        try w.draw()
        guard try c.wait(4, with: im, until: { textInput.focusedSurface != nil || unavailable }) else {
            return .skip("the window never got the text input focus (no keyboard focus without input)")
        }
        guard !unavailable else { return .skip("the compositor has an input method of its own (input-method-v2 unavailable)") }
        textInput.enable(cursorRectangle: (x: 10, y: 10, width: 1, height: 20))
        guard try c.wait(4, with: im, until: { active && dones > 0 }) else { return .fail("the input method was not activated within 4 s of enable") }
        var arrived: String?
        textInput.onEvent = { if case let .done(update) = $0, let text = update.commit { arrived = text } }
        let text = "日本 ✓"
        method.commitString(text: text)
        method.commit(serial: dones)
        guard try c.wait(4, with: im, until: { arrived != nil }) else { return .fail("the input method's commit did not reach the window within 4 s") }
        guard arrived == text else { return .fail("other text arrived", detail: arrived) }
        return .pass("the input method's commit arrived")
    }

    // MARK: Edge cases

    static let edgeCases: [ReportCardCheck] = [
        check("edge cases", "commit storm") { c in
            let w = TestToplevel(c, title: "storm")
            guard try w.map() else { return .fail("no configure within 4 s") }
            for _ in 0..<1000 { w.surface.commit() }
            try c.display.connection.roundtrip(timeout: 5)
            return .pass("1,000 commits")
        },
        check("edge cases", "10,000 damage rectangles") { c in
            let w = TestToplevel(c, title: "damage")
            guard try w.map() else { return .fail("no configure within 4 s") }
            w.acknowledge()
            _ = try c.attachBuffer(to: w.surface, width: 200, height: 150)
            for i in 0..<10_000 {
                w.surface.damageBuffer(x: Int32(i % 200), y: Int32(i / 200 % 150), width: 1, height: 1)
                // 240 KB of requests: sent as the socket takes them (libwayland 1.21 gives up on a full socket).
                if i % 500 == 499 { try c.display.connection.flush(timeout: 5) }
            }
            w.surface.commit()
            try c.display.connection.roundtrip(timeout: 5)
            return .pass()
        },
        check("edge cases", "frame callbacks never waited for") { c in
            let w = TestToplevel(c, title: "callbacks")
            guard try w.map() else { return .fail("no configure within 4 s") }
            for _ in 0..<1000 {
                c.keep(w.surface.frame())
                w.surface.commit()
            }
            try c.display.connection.roundtrip(timeout: 5)
            return .pass()
        },
        check("edge cases", "buffer destroyed before its release") { c in
            // A client that gives a buffer up while the compositor still holds it (legal for
            // shm: the compositor keeps what it needs), then draws on.
            let w = TestToplevel(c, title: "released late")
            guard try w.map() else { return .fail("no configure within 4 s") }
            for _ in 0..<3 {
                w.acknowledge()
                let buffer = try c.attachBuffer(to: w.surface, width: 200, height: 150)
                w.surface.commit()
                c.pool.discard(buffer)   // destroyed as `buffer` goes, the compositor still holding it
            }
            let callback = w.surface.frame()
            var arrived = false
            callback.onEvent = { _ in arrived = true }
            c.keep(callback)
            try w.draw()
            return try c.wait(3, until: { arrived }) ? .pass("survived; frames go on") : .fail("no frame callback within 3 s after")
        },
        check("edge cases", "100 subsurfaces") { c in
            guard let sub = c.display.registry.bindIfOffered(WlSubcompositor.self) else { return .skip("wl_subcompositor is not offered") }
            let w = TestToplevel(c, title: "subsurfaces")
            guard try w.map() else { return .fail("no configure within 4 s") }
            for i in 0..<100 {
                let s = c.display.compositor.createSurface()
                let child = sub.getSubsurface(surface: s, parent: w.surface)
                child.setPosition(x: Int32(i % 10 * 20), y: Int32(i / 10 * 15))
                _ = try c.attachBuffer(to: s, width: 16, height: 12, color: 0xff00_0000 | UInt32(i * 2))
                s.commit()
                c.keep(s, child)
            }
            w.surface.commit()
            try c.display.connection.roundtrip(timeout: 5)
            c.keep(sub)
            return .pass()
        },
        check("edge cases", "parent destroyed under its popup") { c in
            let w = TestToplevel(c, title: "parent")
            guard try w.map() else { return .fail("no configure within 4 s") }
            let positioner = c.display.wmBase.createPositioner()
            positioner.setSize(width: 40, height: 30)
            positioner.setAnchorRect(x: 10, y: 10, width: 1, height: 1)
            let surface = c.display.compositor.createSurface()
            let xdg = c.display.wmBase.getXdgSurface(surface: surface)
            let popup = xdg.getPopup(parent: w.xdg, positioner: positioner)
            var shown = false
            popup.onEvent = { if case .configure = $0 { shown = true } }
            c.keep(positioner, surface, xdg, popup)
            surface.commit()
            guard try c.wait(until: { shown }) else { return .fail("no popup configure within 4 s") }
            // The parent goes first — the protocol names this an error.
            w.toplevel.destroy()
            w.xdg.destroy()
            w.surface.destroy()
            do {
                try c.display.connection.roundtrip(timeout: 5)
            } catch {
                return .pass("the client was disconnected with a protocol error")
            }
            return .pass("tolerated")
        },
    ]
}
