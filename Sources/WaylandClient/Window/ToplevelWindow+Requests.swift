/// Window management a client asks of the compositor for the user — moving,
/// resizing, the window menu, minimizing, activation — as intent-level calls, so
/// a toolkit never touches the `xdg_toplevel` or `xdg_activation_v1` objects.
/// Each interactive request quotes the input event that asked for it (its seat
/// and serial); a compositor ignores requests whose serial is not a recent press.
extension ToplevelWindow {
    /// An edge or corner of the window, for interactive resizing.
    public enum Edge: Hashable, Sendable, CaseIterable {
        case top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

        var protocolValue: XdgToplevel.ResizeEdge {
            switch self {
            case .top: .top
            case .bottom: .bottom
            case .left: .left
            case .right: .right
            case .topLeft: .topLeft
            case .topRight: .topRight
            case .bottomLeft: .bottomLeft
            case .bottomRight: .bottomRight
            }
        }
    }

    /// Lets the user move the window with the pointer or finger that pressed
    /// (`xdg_toplevel.move`); the compositor takes that input until it is released.
    public func beginMove(seat: Seat, serial: UInt32) {
        toplevel.move(seat: seat.proxy, serial: serial)
    }

    /// Lets the user resize the window from `edge` (`xdg_toplevel.resize`).
    public func beginResize(seat: Seat, serial: UInt32, edge: Edge) {
        toplevel.resize(seat: seat.proxy, serial: serial, edges: edge.protocolValue)
    }

    /// Shows the compositor's window menu at a point of the window's geometry
    /// (`xdg_toplevel.show_window_menu`).
    public func showWindowMenu(seat: Seat, serial: UInt32, x: Int, y: Int) {
        toplevel.showWindowMenu(seat: seat.proxy, serial: serial, x: Int32(clamping: x), y: Int32(clamping: y))
    }

    /// Makes the window a dialog of `parent` (`xdg_toplevel.set_parent`; nil: a
    /// window of its own again): compositors keep it above its parent and may
    /// centre it there.
    public func setParent(_ parent: ToplevelWindow?) {
        toplevel.setParent(parent: parent?.toplevel)
    }

    /// Tells the compositor the dialog blocks its parent (`xdg_dialog_v1.set_modal`),
    /// where it offers the dialog protocol; false where it does not (the app then
    /// blocks the parent itself).
    @discardableResult
    public func setModal(_ modal: Bool) -> Bool {
        guard let manager = display.dialogManager else { return false }
        if dialog == nil { dialog = manager.getXdgDialog(toplevel: toplevel) }
        modal ? dialog?.setModal() : dialog?.unsetModal()
        return true
    }

    /// Asks the compositor to minimize the window (it may not; no state says so).
    public func minimize() {
        toplevel.setMinimized()
    }

    /// Asks the compositor to raise and focus the window (`xdg_activation_v1`),
    /// quoting `input` (the latest press) when there is one, with a token from the
    /// surface that has the keyboard focus now (`requester`: compositors trust
    /// requests from the focused window). Compositors may instead mark the window
    /// as wanting attention. False where the compositor offers no activation.
    @discardableResult
    public func activate(quoting input: (seat: Seat, serial: UInt32)?, requestedBy requester: ToplevelWindow? = nil) -> Bool {
        guard let activation = display.activation else { return false }
        let token = activation.getActivationToken()
        if let input { token.setSerial(serial: input.serial, seat: input.seat.proxy) }
        token.setSurface(surface: (requester ?? self).surface)
        token.onEvent = { [weak self, unowned token] event in
            guard case let .done(string) = event else { return }
            if let self { activation.activate(token: string, surface: self.surface) }
            token.destroy()
            self?.pendingActivation = nil
        }
        token.commit()
        pendingActivation = token
        return true
    }

    /// A handle naming this window to other clients (xdg-foreign), for another
    /// process to make its dialog a child of it — xdg-desktop-portal takes it as
    /// `wayland:HANDLE`. `done` gets it once the compositor sends it (at once
    /// after the first time), or nil where no exporter is offered. The handle
    /// stays valid while the window lives. Exported with `zxdg_exporter_v2`, else
    /// with `zxdg_exporter_v1` where only that is offered. (wlroots keeps one set
    /// of handles for both versions, so GTK's portal backend, which imports with
    /// v1, takes a v2 handle.)
    public func exportHandle(_ done: @escaping (String?) -> Void) {
        if let exported { return exported.whenHandled(done) }
        let export = ExportedToplevel()
        if let exporter = display.exporter {
            let object = exporter.exportToplevel(surface: surface)
            object.onEvent = { [weak export] in if case let .handle(handle) = $0 { export?.received(handle) } }
            export.destroy = object.destroy
        } else if let exporter = display.exporterV1 {
            let object = exporter.export(surface: surface)
            object.onEvent = { [weak export] in if case let .handle(handle) = $0 { export?.received(handle) } }
            export.destroy = object.destroy
        } else {
            return done(nil)
        }
        exported = export
        export.whenHandled(done)
    }
}

/// A toplevel exported for other clients: the handle once the compositor sent
/// it, and who waits for it.
final class ExportedToplevel {
    private(set) var handle: String?
    private var waiting: [(String?) -> Void] = []
    /// Destroys the exported object (which this closure keeps alive until then).
    var destroy: () -> Void = {}

    func whenHandled(_ done: @escaping (String?) -> Void) {
        if let handle { done(handle) } else { waiting.append(done) }
    }

    func received(_ handle: String) {
        self.handle = handle
        let waiting = self.waiting
        self.waiting = []
        for done in waiting { done(handle) }
    }
}
