/// What a drag carries (`UIDragItem`'s item provider, reduced to what Linux
/// desktops exchange): text, or files as a `text/uri-list` of `file://` URLs.
public enum DragItem: Hashable, Sendable {
    case text(String)
    /// Absolute paths of files.
    case files([String])

    /// MIME types of text, best first (as the clipboard's).
    static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]
    static let uriList = "text/uri-list"

    /// The MIME types and bytes a drag of these items offers other apps.
    public static func offers(_ items: [DragItem]) -> [(mimeType: String, bytes: [UInt8])] {
        var offers: [(String, [UInt8])] = []
        var texts: [String] = [], paths: [String] = []
        for item in items {
            switch item {
            case let .text(t): texts.append(t)
            case let .files(p): paths += p
            }
        }
        if !paths.isEmpty { offers.append((uriList, Array(uriList(paths).utf8))) }
        let text = texts.isEmpty ? paths.joined(separator: "\n") : texts.joined(separator: "\n")
        if !text.isEmpty { offers += textTypes.map { ($0, Array(text.utf8)) } }
        return offers
    }

    /// RFC 2483's list: one `file://` URL a line, CRLF, bytes outside the
    /// unreserved set and `/` percent-encoded.
    static func uriList(_ paths: [String]) -> String {
        paths.map { path in
            "file://" + path.utf8.map { b -> String in
                let c = Character(Unicode.Scalar(b))
                return (c.isASCII && (c.isLetter || c.isNumber || "-._~/".contains(c))) ? String(c) : "%" + hex(b)
            }.joined()
        }.joined(separator: "\r\n") + "\r\n"
    }

    /// The local paths of a `text/uri-list` (comments, blank lines and URLs of
    /// other schemes or hosts are skipped; bad escapes keep their characters).
    static func paths(fromURIList text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).compactMap { line -> String? in
            guard !line.hasPrefix("#") else { return nil }
            var rest = Substring(line)
            if rest.hasPrefix("file://localhost/") { rest = rest.dropFirst(16) } else if rest.hasPrefix("file:///") { rest = rest.dropFirst(7) } else { return nil }
            var bytes: [UInt8] = []
            var u = Array(rest.utf8)[...]
            while let b = u.first {
                if b == UInt8(ascii: "%"), u.count >= 3, let v = UInt8(String(decoding: u.dropFirst().prefix(2), as: UTF8.self), radix: 16) {
                    bytes.append(v)
                    u = u.dropFirst(3)
                } else {
                    bytes.append(b)
                    u = u.dropFirst()
                }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    private static func hex(_ b: UInt8) -> String {
        let s = String(b, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }
}

/// What a drop does (`UIDropOperation`).
public enum DropOperation: Hashable, Sendable {
    /// Nothing here takes the drag (the drop is refused).
    case cancel
    /// The view would take it, but not now (refused, as `.cancel`).
    case forbidden
    case copy
    case move
}
