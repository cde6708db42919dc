import Glibc
import Strata

/// An application as the freedesktop Desktop Entry specification describes it
/// (`.desktop` files under `applications/` in the XDG data directories): its
/// name in the user's language, a comment, an icon name and the command line.
public struct DesktopEntry: Hashable, Sendable {
    /// The desktop file ID ("org.gnome.Calculator.desktop"; a file in a
    /// subdirectory `a/b.desktop` is "a-b.desktop").
    public var id: String
    public var name: String
    public var genericName: String?
    public var comment: String?
    public var icon: String?
    /// The `Exec` key as written (field codes and quoting unexpanded).
    public var exec: String
    public var terminal = false
    /// The file it was read from (`%k`).
    public var path: String
    /// Extra words the launcher matches (`Keywords`).
    public var keywords: [String] = []

    public init(id: String, name: String, exec: String, path: String, genericName: String? = nil, comment: String? = nil,
                icon: String? = nil, terminal: Bool = false, keywords: [String] = []) {
        (self.id, self.name, self.exec, self.path) = (id, name, exec, path)
        (self.genericName, self.comment, self.icon, self.terminal, self.keywords) = (genericName, comment, icon, terminal, keywords)
    }

    /// Why a file is not an application the launcher lists.
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAnApplication, hidden, noName, noExec
        case badExec(String)
        public var description: String {
            switch self {
            case .notAnApplication: "not of type Application"
            case .hidden: "hidden (NoDisplay or Hidden)"
            case .noName: "no Name"
            case .noExec: "no Exec"
            case let .badExec(why): "a broken Exec line: \(why)"
            }
        }
    }

    /// Reads an entry from a file's text; `locale` is LC_MESSAGES's value
    /// ("de_DE.UTF-8@euro") for localized keys.
    public static func parse(_ text: String, id: String, path: String, locale: String?) throws(Refusal) -> DesktopEntry {
        var values: [String: String] = [:]
        var inMainGroup = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                inMainGroup = line.hasPrefix("[Desktop Entry]")
                continue
            }
            guard inMainGroup, let eq = line.firstIndex(of: "=") else { continue }
            let key = line[..<eq].trimmingSpaces, value = line[line.index(after: eq)...].trimmingSpaces
            if values[key] == nil { values[key] = value }   // the first of a duplicated key counts
        }
        func localized(_ key: String) -> String? {
            for suffix in localeSuffixes(locale) { if let v = values["\(key)[\(suffix)]"] { return unescape(v) } }
            return values[key].map(unescape)
        }
        guard values["Type"] == "Application" else { throw .notAnApplication }
        if values["NoDisplay"] == "true" || values["Hidden"] == "true" { throw .hidden }
        guard let name = localized("Name"), !name.isEmpty else { throw .noName }
        guard let exec = values["Exec"].map(unescape), !exec.isEmpty else { throw .noExec }
        var entry = DesktopEntry(id: id, name: name, exec: exec, path: path)
        entry.genericName = localized("GenericName")
        entry.comment = localized("Comment")
        entry.icon = values["Icon"].map(unescape)
        entry.terminal = values["Terminal"] == "true"
        entry.keywords = localized("Keywords")?.split(separator: ";").map(String.init) ?? []
        _ = try entry.commandLine(files: [])   // a broken Exec line refuses the entry now, not at launch
        return entry
    }

    /// The localized-key suffixes to try for a locale, best first (the
    /// specification's order: lang_COUNTRY@MODIFIER, lang_COUNTRY, lang@MODIFIER, lang).
    static func localeSuffixes(_ locale: String?) -> [String] {
        guard var l = locale, !l.isEmpty, l != "C", l != "POSIX" else { return [] }
        var modifier: Substring?
        if let at = l.firstIndex(of: "@") { modifier = l[l.index(after: at)...]; l = String(l[..<at]) }
        if let dot = l.firstIndex(of: ".") { l = String(l[..<dot]) }
        let parts = l.split(separator: "_", maxSplits: 1)
        guard let lang = parts.first else { return [] }
        let country = parts.count > 1 ? parts[1] : nil
        var out: [String] = []
        if let country, let modifier { out.append("\(lang)_\(country)@\(modifier)") }
        if let country { out.append("\(lang)_\(country)") }
        if let modifier { out.append("\(lang)@\(modifier)") }
        out.append(String(lang))
        return out
    }

    /// The escapes of string values: \s \n \t \r \\ (and \; kept as \; for lists).
    static func unescape(_ s: String) -> String {
        guard s.contains("\\") else { return s }
        var out = "", escaped = false
        for c in s {
            if escaped {
                switch c {
                case "s": out.append(" ")
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "r": out.append("\r")
                case "\\": out.append("\\")
                default: out.append("\\"); out.append(c)
                }
                escaped = false
            } else if c == "\\" { escaped = true } else { out.append(c) }
        }
        if escaped { out.append("\\") }
        return out
    }

    /// The program and its arguments from `Exec`: split at unquoted spaces;
    /// inside double quotes a backslash escapes `"`, `` ` ``, `$` and `\`; field
    /// codes expanded — `%f`/`%u` the first file, `%F`/`%U` all of them (nothing
    /// without files), `%i` `--icon ICON`, `%c` the name, `%k` the file, `%%` a
    /// percent sign; the deprecated `%d %D %n %N %v %m` dropped. An unterminated
    /// quote, a code the specification does not define, or an empty line is an error.
    public func commandLine(files: [String]) throws(Refusal) -> [String] {
        var words: [[WordPart]] = []
        var current: [WordPart] = [], inWord = false, quoted = false
        var chars = Array(exec)[...]
        func endWord() { if inWord { words.append(current) }; current = []; inWord = false }
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" { quoted = false; continue }
                if c == "\\" {
                    guard let next = chars.popFirst(), "\"`$\\".contains(next) else { throw .badExec("a backslash in quotes escapes only \" ` $ \\") }
                    current.append(.text(String(next)))
                    continue
                }
                if c == "%" { current.append(.text(try code(chars.popFirst(), quoted: true).joined())) ; continue }
                current.append(.text(String(c)))
            } else {
                switch c {
                case " ", "\t": endWord()
                case "\"": quoted = true; inWord = true
                case "%":
                    inWord = true
                    guard let next = chars.popFirst() else { throw .badExec("a lone % at the end") }
                    if "fFuUi".contains(next) {
                        current.append(.field(next))
                    } else {
                        current.append(.text(try code(next, quoted: false).joined()))
                    }
                default: inWord = true; current.append(.text(String(c)))
                }
            }
        }
        guard !quoted else { throw .badExec("an unterminated quote") }
        endWord()
        // Expand: a word that is just %F/%U/%i becomes several words (or none).
        var argv: [String] = []
        for word in words {
            if word.count == 1, case let .field(f) = word[0] {
                switch f {
                case "F", "U": argv += files
                case "f", "u": argv += files.prefix(1)
                case "i": if let icon, !icon.isEmpty { argv += ["--icon", icon] }
                default: break
                }
                continue
            }
            var text = ""
            for part in word {
                switch part {
                case let .text(t): text += t
                case let .field(f):
                    guard f == "f" || f == "u" else { throw .badExec("%\(f) must be a word of its own") }
                    text += files.first ?? ""
                }
            }
            argv.append(text)
        }
        guard let program = argv.first, !program.isEmpty else { throw .badExec("no program") }
        return argv
    }

    private enum WordPart { case text(String), field(Character) }

    private func code(_ c: Character?, quoted: Bool) throws(Refusal) -> [String] {
        switch c {
        case "%": return ["%"]
        case "c": return [name]
        case "k": return [path]
        case "d", "D", "n", "N", "v", "m": return []
        case let c?: throw .badExec(quoted && "fFuUi".contains(c) ? "field code %\(c) inside quotes" : "unknown field code %\(c)")
        case nil: throw .badExec("a lone % at the end")
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

/// The applications installed for this user: every `.desktop` file under
/// `applications/` in `$XDG_DATA_HOME` (default `~/.local/share`) and each of
/// `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`), the first
/// directory winning for a desktop file ID, sorted by name. Files that are not
/// listable applications are left out; `refused` says which and why.
public struct DesktopEntries {
    public private(set) var entries: [DesktopEntry] = []
    public private(set) var refused: [(path: String, why: DesktopEntry.Refusal)] = []

    public init(directories: [String] = DesktopEntries.applicationDirectories(), locale: String? = Application.messagesLocale) {
        var seen: Set<String> = []
        for dir in directories {
            for (id, path) in Self.files(in: dir, prefix: "") where seen.insert(id).inserted {
                guard let text = SystemStatus.readText(path) else { continue }
                do throws(DesktopEntry.Refusal) {
                    entries.append(try DesktopEntry.parse(text, id: id, path: path, locale: locale))
                } catch {
                    refused.append((path, error))
                }
            }
        }
        entries.sort { $0.name.lowercased() < $1.name.lowercased() }
    }

    public static func applicationDirectories() -> [String] {
        let env = { (n: String) in getenv(n).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let home = env("XDG_DATA_HOME") ?? ((env("HOME") ?? "/") + "/.local/share")
        let dirs = (env("XDG_DATA_DIRS") ?? "/usr/local/share:/usr/share").split(separator: ":").map(String.init)
        return ([home] + dirs).map { $0 + "/applications" }
    }

    /// `.desktop` files under `dir` with their IDs, at most 8 levels down and 10,000 files.
    static func files(in dir: String, prefix: String, depth: Int = 0) -> [(id: String, path: String)] {
        guard depth < 8, let handle = opendir(dir) else { return [] }
        defer { closedir(handle) }
        var out: [(String, String)] = [], subdirectories: [String] = []
        while let entry = readdir(handle), out.count < 10_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(".") { continue }
            if entry.pointee.d_type == DT_DIR { subdirectories.append(name); continue }
            if name.hasSuffix(".desktop") { out.append((prefix + name, dir + "/" + name)) }
        }
        for sub in subdirectories.sorted() { out += files(in: dir + "/" + sub, prefix: prefix + sub + "-", depth: depth + 1) }
        return out.sorted { $0.0 < $1.0 }
    }
}
