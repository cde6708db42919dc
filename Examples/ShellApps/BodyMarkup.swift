import Strata

/// The markup a notification body may carry (the specification's `body-markup`:
/// `<b>`, `<i>`, `<u>`, `<a href>`, `<img alt>`) as attributed text: bold and
/// italic runs, links in the link colour, images by their alt text. Entities
/// (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#N;`, `&#xN;`) are decoded.
/// Unknown tags are dropped and their text kept; a `<` that starts no tag is text.
/// Underline is not drawn (Strata's text has no underline yet).
@MainActor
public enum BodyMarkup {
    /// Links, on the toasts' dark background.
    public static let linkColor = Color(rgba8: 0x8a, 0xb4, 0xf8)

    public static func parse(_ markup: String, size: Double = 13) -> AttributedText {
        var text = ""
        var runs: [(Range<Int>, AttributedText.Attributes)] = []
        var open: [(tag: String, start: Int)] = []
        var i = markup.startIndex
        while i < markup.endIndex {
            let c = markup[i]
            // A tag: `<` then a letter or `/`, up to a `>` with no `<` between.
            if c == "<", let close = markup[i...].firstIndex(of: ">"),
               case let inside = markup[markup.index(after: i)..<close],
               let first = inside.first, first.isLetter || first == "/", !inside.contains("<") {
                i = markup.index(after: close)
                let closing = inside.hasPrefix("/")
                let name = inside.drop { $0 == "/" }.prefix { $0.isLetter }.lowercased()
                if closing {
                    if let at = open.lastIndex(where: { $0.tag == name }) {
                        let start = open[at].start
                        open.remove(at: at)
                        let range = start..<text.utf8.count
                        switch name {
                        case "b": runs.append((range, .init(weight: .bold)))
                        case "i": runs.append((range, .init(font: .italicSystemFont(ofSize: size))))
                        case "a": runs.append((range, .init(color: BodyMarkup.linkColor)))
                        default: break
                        }
                    }
                } else if name == "img" {
                    text += attribute("alt", in: String(inside)).map { "[\(decode($0))]" } ?? ""
                } else if ["b", "i", "u", "a"].contains(name) {
                    open.append((name, text.utf8.count))
                }
                continue
            }
            if c == "&", let semicolon = markup[i...].prefix(12).firstIndex(of: ";") {
                let entity = String(markup[i...semicolon])
                let decoded = decode(entity)
                if decoded != entity {
                    text += decoded
                    i = markup.index(after: semicolon)
                    continue
                }
            }
            text.append(c)
            i = markup.index(after: i)
        }
        var result = AttributedText(text)
        let utf8 = text.utf8
        for (range, attributes) in runs {
            let lower = utf8.index(utf8.startIndex, offsetBy: range.lowerBound), upper = utf8.index(utf8.startIndex, offsetBy: range.upperBound)
            result.setAttributes(attributes, range: lower..<upper)
        }
        return result
    }

    /// An attribute's value in a tag's text (`alt="…"` or `alt='…'`).
    static func attribute(_ name: String, in tag: String) -> String? {
        guard let r = tag.firstRange(of: name + "=") else { return nil }
        let rest = tag[r.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Entities decoded; anything else left as it is.
    static func decode(_ s: String) -> String {
        var out = "", i = s.startIndex
        while i < s.endIndex {
            if s[i] == "&", let end = s[i...].prefix(12).firstIndex(of: ";") {
                let name = s[s.index(after: i)..<end]
                var scalar: Unicode.Scalar?
                switch name {
                case "amp": scalar = "&"
                case "lt": scalar = "<"
                case "gt": scalar = ">"
                case "quot": scalar = "\""
                case "apos": scalar = "'"
                default:
                    if name.hasPrefix("#x") || name.hasPrefix("#X") { scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init) }
                    else if name.hasPrefix("#") { scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
                }
                if let scalar, scalar.value != 0 {
                    out.unicodeScalars.append(scalar)
                    i = s.index(after: end)
                    continue
                }
            }
            out.append(s[i])
            i = s.index(after: i)
        }
        return out
    }
}
