import CGio
import FoundationEssentials
import Glibc

extension Application {
    /// The connection to the portal, made when first needed.
    func desktopPortal() throws(PortalError) -> DesktopPortal {
        if let portal { return portal }
        let made = try DesktopPortal(address: desktopBusAddress)
        portal = made
        return made
    }

    /// Why a URL was not opened.
    public enum OpenURLError: Error, Equatable, CustomStringConvertible {
        /// The URL has no scheme, or one that is not opened (scripts and inline
        /// data: `javascript:`, `vbscript:`, `data:`), as a browser refuses them from outside.
        case unsupportedURL(String)
        /// A `file:` URL whose file does not exist or cannot be read.
        case fileNotFound(URL)
        /// The person closed the portal's application chooser.
        case cancelled
        /// The portal could not be asked, or found nothing to open it with.
        case portal(PortalError)

        public var description: String {
            switch self {
            case let .unsupportedURL(u): "not a URL that can be opened: \(u)"
            case let .fileNotFound(u): "no readable file at \(u.absoluteString)"
            case .cancelled: "cancelled"
            case let .portal(e): e.description
            }
        }
    }

    /// Opens `url` with the person's preferred application, through
    /// xdg-desktop-portal's `OpenURI` (as UIKit's `open(_:options:completionHandler:)`
    /// hands a URL to the system): a web link in the browser, `mailto:` in the
    /// mail client, a local file (given to the portal as an open file
    /// descriptor, `OpenFile`) in the application for its type. Returns when the
    /// portal has handed it over. A chooser the portal shows is a child of the
    /// key window.
    public func open(_ url: URL) async throws(OpenURLError) {
        guard let scheme = url.scheme?.lowercased(), Self.isOpenable(scheme: scheme) else { throw .unsupportedURL(url.absoluteString) }
        let portal: DesktopPortal
        do { portal = try desktopPortal() } catch { throw .portal(error) }
        var fd: Int32 = -1
        if url.isFileURL {
            fd = Glibc.open(url.path(percentEncoded: false), O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw .fileNotFound(url) }
        }
        defer { if fd >= 0 { Glibc.close(fd) } }
        let parent = await keyboardFocusWindow?.portalParent() ?? ""
        do throws(PortalError) {
            if fd >= 0 {
                // The descriptor is the message's first (index 0).
                _ = try await portal.request("org.freedesktop.portal.OpenURI", "OpenFile", fileDescriptor: fd) { _ in
                    [g_variant_new_string(parent), g_variant_new_handle(0)]
                }
            } else {
                let text = url.absoluteString
                _ = try await portal.request("org.freedesktop.portal.OpenURI", "OpenURI") { _ in
                    [g_variant_new_string(parent), g_variant_new_string(text)]
                }
            }
        } catch .cancelled {
            throw .cancelled
        } catch {
            throw .portal(error)
        }
    }

    /// RFC 3986's scheme syntax, less the schemes that run or embed content.
    static func isOpenable(scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        guard scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) }) else { return false }
        return !["javascript", "vbscript", "data", "about", "blob"].contains(scheme)
    }
}

extension Window {
    /// How a portal's dialog names this window as its parent: `wayland:HANDLE`
    /// from xdg-foreign, so the compositor keeps the dialog over this window;
    /// empty (a dialog of its own) off screen, where the compositor exports no
    /// toplevels, or when no handle comes within half a second.
    func portalParent() async -> String {
        guard let toplevel = onscreen?.toplevel else { return "" }
        let handle: String? = await withCheckedContinuation { continuation in
            var resumed = false
            func finish(_ value: String?) {
                guard !resumed else { return }
                resumed = true
                continuation.resume(returning: value)
            }
            toplevel.exportHandle { finish($0) }
            Application.shared.loop?.schedule(after: 0.5) { finish(nil) }
        }
        return handle.map { "wayland:" + $0 } ?? ""
    }
}
