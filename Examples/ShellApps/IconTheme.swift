import Glibc

/// Finds an icon by name as the freedesktop icon theme specification lays them
/// out: `icons/THEME/SIZExSIZE/CONTEXT/NAME.png` in the XDG data directories, in
/// the theme (Adwaita by default), then hicolor, then `/usr/share/pixmaps`;
/// the nearest size at or above the one asked for first. An absolute path or a
/// `file://` URI is taken as it is. Names that could leave the icon folders
/// (`/`, `..`) are refused.
public struct IconTheme {
    public var themes: [String]
    public var directories: [String]

    public init(themes: [String] = ["Adwaita", "hicolor"], directories: [String] = IconTheme.dataDirectories()) {
        self.themes = themes
        self.directories = directories
    }

    public static func dataDirectories() -> [String] {
        let env = { (n: String) in getenv(n).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let home = env("XDG_DATA_HOME") ?? ((env("HOME") ?? "/") + "/.local/share")
        return [home] + (env("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
    }

    static let sizes = [48, 64, 96, 128, 256, 32, 24, 22, 16]
    static let contexts = ["apps", "status", "devices", "actions", "categories", "mimetypes", "places", "emblems", "legacy"]

    /// The PNG file for `name`, nil when there is none (or the name is refused).
    public func path(for name: String) -> String? {
        if name.hasPrefix("file://") { return path(for: String(name.dropFirst(7))) }
        if name.hasPrefix("/") { return name.contains("/../") || access(name, R_OK) != 0 ? nil : name }
        guard !name.isEmpty, name.count < 256, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        for theme in themes {
            for dir in directories {
                for size in Self.sizes {
                    for context in Self.contexts {
                        let candidate = "\(dir)/icons/\(theme)/\(size)x\(size)/\(context)/\(name).png"
                        if access(candidate, R_OK) == 0 { return candidate }
                    }
                }
            }
        }
        let pixmap = "/usr/share/pixmaps/\(name).png"
        return access(pixmap, R_OK) == 0 ? pixmap : nil
    }
}
