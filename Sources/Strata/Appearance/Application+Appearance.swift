import Glibc
import LayerKit

extension Application {
    /// Follows the desktop's appearance: dark or light, contrast and text size
    /// from xdg-desktop-portal's Settings interface, live (rule P1), and the
    /// layout direction of the session's language (rule P3). Each change
    /// sets the system traits of the app's context and the app's windows redraw
    /// in their next frame. ``connect(socket:)`` calls it.
    ///
    /// Fallbacks, none of them an error: with no session bus, or no portal
    /// answering within `timeout` seconds, GNOME's settings are read once through
    /// GSettings (dconf) where their schemas are installed; else the app's look
    /// comes from `GTK_THEME` (a `:dark` suffix means dark, as GTK reads it); else
    /// it stays light with the default text size. Returns false when the portal
    /// could not be read.
    @discardableResult
    public func followSystemAppearance(busAddress: String? = nil, timeout: Double = 1) -> Bool {
        settingsPortal?.stop()
        settingsPortal = nil
        let portal = SettingsPortal { [weak self] settings in self?.systemSettingsChanged(settings) }
        do {
            let settings = try portal.start(address: busAddress, timeout: timeout)
            settingsPortal = portal
            systemSettingsChanged(settings)
            return true
        } catch {
            if let settings = SettingsPortal.Settings.readGSettings() {
                systemSettingsChanged(settings)
            } else {
                var traits = TraitCollection()
                if let theme = getenv("GTK_THEME"), String(cString: theme).hasSuffix(":dark") { traits.userInterfaceStyle = .dark }
                apply(traits)
            }
            return false
        }
    }

    /// The locale of the session's messages, as POSIX orders the variables:
    /// `LC_ALL`, else `LC_MESSAGES`, else `LANG` (nil when none is set).
    nonisolated public static var messagesLocale: String? {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let v = getenv(key), v.pointee != 0 { return String(cString: v) }
        }
        return nil
    }

    /// The direction of the session's language (rule P3).
    public static var localeLayoutDirection: LayoutDirection { messagesLocale.map(LayoutDirection.init(locale:)) ?? .leftToRight }

    private func systemSettingsChanged(_ settings: SettingsPortal.Settings) {
        let reduces = settings.enableAnimations == false
        if reduces != isReduceMotionEnabled {
            isReduceMotionEnabled = reduces
            onReduceMotionChange?()
        }
        apply(settings.traits)
    }

    /// The standard traits with what the system specified, in the locale's direction.
    private func apply(_ traits: TraitCollection) {
        var new = TraitCollection.standard.overlaid(by: traits)
        new.layoutDirection = Self.localeLayoutDirection
        guard new != LayerContext.main.systemTraits else { return }
        LayerContext.main.systemTraits = new
        for window in windows { window.updateTraitsIfNeeded() }
    }
}
