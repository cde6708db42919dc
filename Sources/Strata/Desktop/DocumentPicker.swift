import CGio
import FoundationEssentials
import Glibc
import LayerKit

/// Opens or exports documents through the desktop's file chooser, as UIKit's
/// `UIDocumentPickerViewController` does on iOS: the picker is the system's
/// (xdg-desktop-portal's `FileChooser`, so GNOME's, KDE's or GTK's dialog, and
/// the one a Flatpak sandbox allows), shown over the app's window (named to the
/// portal through xdg-foreign where the compositor offers it), and the app gets
/// the URLs chosen.
///
/// ```swift
/// let picker = DocumentPicker(forOpeningContentTypes: ["image/png", "txt"], allowsMultipleSelection: true)
/// let urls = try await picker.present(in: window)
/// ```
///
/// Content types are MIME types (`image/png`, `text/*`), extensions (`txt`,
/// `.txt`, `*.txt`) or the common uniform type identifiers (`public.png`,
/// `public.image`, `public.plain-text`, `com.adobe.pdf`, `public.folder` to pick
/// folders; `public.item`, `public.data` and `public.content` mean any file).
/// Other identifiers are left out of the filter with a diagnostic.
@MainActor
public final class DocumentPicker {
    /// The content types to open (empty when exporting).
    public let contentTypes: [String]
    /// The files to export (empty when opening).
    public let urlsToExport: [URL]
    /// Whether several files may be chosen (opening only).
    public var allowsMultipleSelection: Bool
    /// The folder the dialog starts in (UIKit's `directoryURL`); nil is the dialog's choice.
    public var directoryURL: URL?
    /// The dialog's title; nil is "Open" or "Export".
    public var title: String?
    /// The dialog's accept button; nil is the dialog's own ("Open", "Save", "Select").
    public var acceptLabel: String?
    private var isPresented = false

    /// A picker for opening files of `contentTypes` (UIKit's `init(forOpeningContentTypes:asCopy:)`).
    public init(forOpeningContentTypes contentTypes: [String], allowsMultipleSelection: Bool = false) {
        self.contentTypes = contentTypes
        self.urlsToExport = []
        self.allowsMultipleSelection = allowsMultipleSelection
    }

    /// A picker that exports `urls` (copies of the files, to where the person
    /// chooses: a save dialog with the file's name for one, a folder for several),
    /// as UIKit's `init(forExporting:asCopy:)`.
    public init(forExporting urls: [URL]) {
        self.contentTypes = []
        self.urlsToExport = urls
        self.allowsMultipleSelection = urls.count > 1
    }

    /// Why a picker gave no URLs.
    public enum PickerError: Error, Equatable, CustomStringConvertible {
        /// The person cancelled (UIKit: `documentPickerWasCancelled(_:)`), or the task was cancelled.
        case cancelled
        /// The portal could not be asked, or failed.
        case portal(PortalError)
        /// A file to export is not a readable local file.
        case notAFile(URL)
        /// Every file chosen was gone by the time the dialog answered.
        case chosenFilesMissing([URL])
        /// An exported file could not be written where the person chose.
        case exportFailed(URL, String)
        /// This picker is already shown.
        case alreadyPresented

        public var description: String {
            switch self {
            case .cancelled: "cancelled"
            case let .portal(e): e.description
            case let .notAFile(u): "\(u.absoluteString) is not a readable local file"
            case let .chosenFilesMissing(u): "the files chosen no longer exist: \(u.map(\.absoluteString).joined(separator: ", "))"
            case let .exportFailed(u, why): "could not write \(u.absoluteString): \(why)"
            case .alreadyPresented: "the picker is already shown"
            }
        }
    }

    /// Shows the desktop's file chooser for `window` and returns the URLs
    /// chosen (opening), or where the exported copies were written (exporting).
    /// Throws ``PickerError/cancelled`` when the person cancels or dismisses
    /// the dialog, or the calling task is cancelled (the dialog closes then). Chosen files that have gone
    /// by the time the dialog answers are left out, with a diagnostic.
    public func present(in window: Window) async throws(PickerError) -> [URL] {
        guard !isPresented else { throw .alreadyPresented }
        isPresented = true
        defer { isPresented = false }
        let portal: DesktopPortal
        do { portal = try Application.shared.desktopPortal() } catch { throw .portal(error) }
        let parent = await window.portalParent()
        if urlsToExport.isEmpty { return try await open(with: portal, parent: parent) }
        return try await export(with: portal, parent: parent)
    }

    /// ``present(in:)`` with a completion handler, called on the main actor (as
    /// UIKit's delegate is told `didPickDocumentsAt` or `documentPickerWasCancelled`).
    public func present(in window: Window, completion: @escaping @MainActor (Result<[URL], PickerError>) -> Void) {
        Task { @MainActor in
            do throws(PickerError) { completion(.success(try await present(in: window))) } catch { completion(.failure(error)) }
        }
    }

    private func open(with portal: DesktopPortal, parent: String) async throws(PickerError) -> [URL] {
        let filter = Self.filter(for: contentTypes)
        let title = title ?? (filter.directory ? "Choose a Folder" : "Open"), accept = acceptLabel
        let multiple = allowsMultipleSelection, folder = directoryURL.flatMap(Self.localPath)
        let uris = try await ask(portal, "OpenFile") { options in
            g_variant_dict_insert_value(options, "multiple", g_variant_new_boolean(multiple ? 1 : 0))
            g_variant_dict_insert_value(options, "modal", g_variant_new_boolean(1))
            if filter.directory { g_variant_dict_insert_value(options, "directory", g_variant_new_boolean(1)) }
            if let accept { g_variant_dict_insert_value(options, "accept_label", g_variant_new_string(accept)) }
            if let folder { g_variant_dict_insert_value(options, "current_folder", Self.bytes(folder)) }
            if !filter.patterns.isEmpty {
                // Held while it goes into both (each takes its own reference).
                let f = g_variant_ref_sink(Self.filterVariant(name: filter.name, patterns: filter.patterns))
                var filters: [OpaquePointer?] = [f]
                g_variant_dict_insert_value(options, "filters", g_variant_new_array(nil, &filters, 1))
                g_variant_dict_insert_value(options, "current_filter", f)
                g_variant_unref(f)
            }
            return [g_variant_new_string(parent), g_variant_new_string(title)]
        }
        let urls = uris.compactMap { URL(string: $0) }
        let missing = urls.filter { url in Self.localPath(url).map { access($0, F_OK) != 0 } ?? false }
        if !missing.isEmpty {
            Diagnostics.report(.invalidView("document picker: chosen files no longer exist and are left out: \(missing.map(\.absoluteString).joined(separator: ", "))"))
            if missing.count == urls.count { throw .chosenFilesMissing(missing) }
        }
        return urls.filter { !missing.contains($0) }
    }

    private func export(with portal: DesktopPortal, parent: String) async throws(PickerError) -> [URL] {
        let sources = urlsToExport
        for url in sources {
            guard let path = Self.localPath(url), access(path, R_OK) == 0 else { throw .notAFile(url) }
        }
        let title = title ?? "Export", accept = acceptLabel, folder = directoryURL.flatMap(Self.localPath)
        let paths = sources.compactMap(Self.localPath)
        let destinations: [String]
        if sources.count == 1 {
            destinations = try await ask(portal, "SaveFile") { options in
                g_variant_dict_insert_value(options, "modal", g_variant_new_boolean(1))
                g_variant_dict_insert_value(options, "current_name", g_variant_new_string(sources[0].lastPathComponent))
                if let accept { g_variant_dict_insert_value(options, "accept_label", g_variant_new_string(accept)) }
                if let folder { g_variant_dict_insert_value(options, "current_folder", Self.bytes(folder)) }
                return [g_variant_new_string(parent), g_variant_new_string(title)]
            }
        } else {
            destinations = try await ask(portal, "SaveFiles") { options in
                g_variant_dict_insert_value(options, "modal", g_variant_new_boolean(1))
                if let accept { g_variant_dict_insert_value(options, "accept_label", g_variant_new_string(accept)) }
                if let folder { g_variant_dict_insert_value(options, "current_folder", Self.bytes(folder)) }
                var names: [OpaquePointer?] = paths.map { Self.bytes($0) }
                g_variant_dict_insert_value(options, "files", g_variant_new_array(variantType("ay"), &names, gsize(names.count)))
                return [g_variant_new_string(parent), g_variant_new_string(title)]
            }
        }
        var written: [URL] = []
        for (source, destination) in zip(paths, destinations) {
            guard let url = URL(string: destination), let target = Self.localPath(url) else {
                throw .exportFailed(URL(string: destination) ?? URL(filePath: "/"), "not a local file")
            }
            if let why = Self.copy(source, to: target) { throw .exportFailed(url, why) }
            written.append(url)
        }
        return written
    }

    private func ask(_ portal: DesktopPortal, _ method: String,
                     _ arguments: @escaping @Sendable (UnsafeMutablePointer<GVariantDict>) -> [OpaquePointer?]) async throws(PickerError) -> [String] {
        do {
            return try await portal.request("org.freedesktop.portal.FileChooser", method, arguments: arguments).uris
        } catch .cancelled, .ended {
            // GTK's backend ends with response 2 when its dialog is dismissed (Escape, the close button).
            throw .cancelled
        } catch {
            throw .portal(error)
        }
    }

    /// A filter for the portal: glob patterns (0) and MIME types (1), and
    /// whether folders are what is picked.
    struct Filter {
        var name = ""
        var patterns: [(kind: UInt32, pattern: String)] = []
        var directory = false
    }

    static let identifiers: [String: String?] = [
        "public.item": nil, "public.data": nil, "public.content": nil,
        "public.text": "text/*", "public.plain-text": "text/plain", "public.utf8-plain-text": "text/plain",
        "public.image": "image/*", "public.png": "image/png", "public.jpeg": "image/jpeg", "public.svg-image": "image/svg+xml",
        "public.audio": "audio/*", "public.movie": "video/*", "public.video": "video/*",
        "com.adobe.pdf": "application/pdf", "public.json": "application/json", "public.html": "text/html",
        "public.comma-separated-values-text": "text/csv", "public.zip-archive": "application/zip",
    ]

    /// The portal filter for `contentTypes`.
    static func filter(for contentTypes: [String]) -> Filter {
        var filter = Filter()
        var anything = false
        for type in contentTypes {
            let t = String(type.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            if t == "public.folder" || t == "public.directory" || t == "inode/directory" {
                filter.directory = true
            } else if let known = identifiers[t] {
                if let mime = known { filter.patterns.append((1, mime)) } else { anything = true }
            } else if t.contains("/"), !t.hasPrefix("/") {
                filter.patterns.append((1, t))
            } else if let ext = extensionPattern(t) {
                filter.patterns.append((0, ext))
            } else {
                Diagnostics.report(.invalidView("document picker: content type '\(type)' is not a MIME type, extension or known identifier; left out of the filter"))
            }
        }
        if anything || filter.directory { filter.patterns = [] }
        filter.name = filter.patterns.map(\.pattern).joined(separator: ", ")
        return filter
    }

    /// `txt`, `.txt` or `*.txt` as the glob `*.txt`; nil for anything else.
    private static func extensionPattern(_ t: String) -> String? {
        var ext = Substring(t)
        if ext.hasPrefix("*.") { ext = ext.dropFirst(2) } else if ext.hasPrefix(".") { ext = ext.dropFirst() }
        guard !ext.isEmpty, ext.count <= 32, ext.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "+" }) else { return nil }
        return "*." + ext
    }

    nonisolated private static func filterVariant(name: String, patterns: [(kind: UInt32, pattern: String)]) -> OpaquePointer {
        var entries: [OpaquePointer?] = patterns.map { p in
            var pair: [OpaquePointer?] = [g_variant_new_uint32(p.kind), g_variant_new_string(p.pattern)]
            return g_variant_new_tuple(&pair, 2)
        }
        var filter: [OpaquePointer?] = [g_variant_new_string(name), g_variant_new_array(variantType("(us)"), &entries, gsize(entries.count))]
        return g_variant_new_tuple(&filter, 2)
    }

    /// A path as the portal's `ay` (with its terminating NUL).
    nonisolated static func bytes(_ path: String) -> OpaquePointer {
        g_variant_new_bytestring(path)
    }

    /// The file system path of a `file:` URL.
    static func localPath(_ url: URL) -> String? {
        guard url.isFileURL else { return nil }
        let path = url.path(percentEncoded: false)
        return path.isEmpty ? nil : path
    }

    /// Copies `source` to `target` (replacing it); the error's text, or nil.
    private static func copy(_ source: String, to target: String) -> String? {
        let input = Glibc.open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return String(cString: strerror(errno)) }
        defer { Glibc.close(input) }
        let output = Glibc.open(target, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { return String(cString: strerror(errno)) }
        defer { Glibc.close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n == 0 { return nil }
            if n < 0 { if errno == EINTR { continue }; return String(cString: strerror(errno)) }
            var done = 0
            while done < n {
                let w = buffer.withUnsafeBytes { write(output, $0.baseAddress! + done, n - done) }
                if w < 0 { if errno == EINTR { continue }; return String(cString: strerror(errno)) }
                done += w
            }
        }
    }
}
