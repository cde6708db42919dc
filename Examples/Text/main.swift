// A text showcase: Latin with ligatures and kerning, Arabic and Hebrew right to
// left, Devanagari, CJK and emoji, and one paragraph wrapped and truncated at
// several widths — all shaped by Pango and drawn at the output's scale. "Open
// Text…" puts a file's text in the boxes (the desktop's file chooser, through
// xdg-desktop-portal); "Pango's Site" opens a link in the browser.
// Usage: text [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import FoundationEssentials
import Glibc
import Strata
import StrataTesting

@MainActor
final class TextShowcase {
    let window = Window(title: "Strata text", size: Size(width: 900, height: 680))
    var paragraphs: [Label] = []
    let status = Label()

    init() {
        window.backgroundColor = Color(light: Color(rgba8: 0xfa, 0xf8, 0xf4), dark: Color(rgba8: 0x1c, 0x1c, 0x1e))
        let root = window.rootView
        let samples: [(String, String, Font)] = [
            ("Latin", "Office affinity — AVA Wave Toy, fi fl ffi, “quotes” …", .systemFont(ofSize: 24)),
            ("Serif", "Kerning: AV Ta We Yo — Typography at 24 pt", Font(name: "DejaVu Serif", size: 24) ?? .systemFont(ofSize: 24)),
            ("Arabic", "مرحبا بالعالم — النص من اليمين إلى اليسار", .systemFont(ofSize: 24)),
            ("Hebrew", "שלום עולם, עברית מימין לשמאל", .systemFont(ofSize: 24)),
            ("Mixed", "English with עברית and العربية inside", .systemFont(ofSize: 24)),
            ("Devanagari", "नमस्ते दुनिया — हिन्दी पाठ", .systemFont(ofSize: 24)),
            ("CJK", "你好，世界。日本語のテキスト。한국어", .systemFont(ofSize: 24)),
            ("Emoji", "Colour emoji 😀 🎉 👍🏽 🚀 ❤️ 🇫🇷", .systemFont(ofSize: 24)),
        ]
        for (i, (name, text, font)) in samples.enumerated() {
            let y = 16 + Double(i) * 40
            let tag = Label(frame: Rect(x: 16, y: y, width: 110, height: 36))
            tag.text = name
            tag.font = .systemFont(ofSize: 14, weight: .semibold)
            tag.textColor = .secondaryLabel
            root.addSubview(tag)
            let label = Label(frame: Rect(x: 130, y: y, width: 750, height: 36))
            label.text = text
            label.font = font
            root.addSubview(label)
        }
        let paragraph = "Strata lays out text with Pango: HarfBuzz shapes it, FriBidi orders it and Unicode's rules break it into lines, with fonts found by fontconfig. This paragraph wraps at three widths; the last box cuts it with an ellipsis."
        var x = 16.0
        for (width, lines, mode) in [(300.0, 0, LineBreakMode.byWordWrapping), (250, 4, .byTruncatingTail), (220, 3, .byTruncatingMiddle)] {
            let box = View(frame: Rect(x: x, y: 346, width: width + 16, height: 270))
            box.backgroundColor = .secondarySystemGroupedBackground
            box.layer.cornerRadius = 8
            box.layer.borderWidth = 1
            box.layer.borderColor = .systemGray4
            let label = Label(frame: Rect(x: 8, y: 8, width: width, height: 254))
            label.numberOfLines = lines
            label.lineBreakMode = mode
            var attributed = AttributedText(paragraph)
            attributed.setAttributes(.init(color: .systemBlue, weight: .bold), forOccurrencesOf: "Pango")
            attributed.setAttributes(.init(color: .systemRed), forOccurrencesOf: "ellipsis")
            label.attributedText = attributed
            label.font = .systemFont(ofSize: 17)
            let size = label.sizeThatFits(Size(width: width, height: 0))
            label.frame.size.height = min(254, size.height)
            box.frame.size.height = label.frame.height + 16
            box.addSubview(label)
            root.addSubview(box)
            paragraphs.append(label)
            x += width + 32
        }
        let open = Button(title: "Open Text…", style: .filled)
        open.frame = Rect(x: 16, y: 632, width: 170, height: 32)
        open.addAction(for: .primaryActionTriggered) { [unowned self] _ in Task { await openText() } }
        let link = Button(title: "Pango’s Site", style: .filled)
        link.frame = Rect(x: 196, y: 632, width: 170, height: 32)
        link.addAction(for: .primaryActionTriggered) { [unowned self] _ in
            Task {
                do throws(Application.OpenURLError) { try await Application.shared.open(URL(string: "https://pango.gnome.org")!) } catch { status.text = "\(error)" }
            }
        }
        status.frame = Rect(x: 380, y: 632, width: 500, height: 32)
        status.textColor = .secondaryLabel
        status.font = .systemFont(ofSize: 14)
        for view in [open, link, status] { root.addSubview(view) }
    }

    /// The desktop's file chooser for a text file; its first 4 KB go in the boxes.
    func openText() async {
        do throws(DocumentPicker.PickerError) {
            guard let url = try await DocumentPicker(forOpeningContentTypes: ["public.plain-text", "txt", "md"]).present(in: window).first else { return }
            let text = Self.prefix(ofFileAt: url.path(percentEncoded: false), bytes: 4096)
            for label in paragraphs {
                label.text = text
                label.frame.size.height = min(254, label.sizeThatFits(Size(width: label.frame.width, height: 0)).height)
                label.superview?.frame.size.height = label.frame.height + 16
            }
            status.text = url.lastPathComponent
        } catch .cancelled {
            status.text = ""
        } catch {
            status.text = "\(error)"
        }
    }

    static func prefix(ofFileAt path: String, bytes limit: Int) -> String {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, limit) }
        return String(decoding: bytes.prefix(max(0, n)), as: UTF8.self)
    }
}

do {
    try Font.checkAvailability()
} catch {
    ExampleCommandLine.printError("text: \(error)")
    exit(1)
}
ExampleCommandLine.main(program: "text", screenshot: "text.png", make: { _ in TextShowcase() }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
}
