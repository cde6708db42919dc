// A text showcase: Latin with ligatures and kerning, Arabic and Hebrew right to
// left, Devanagari, CJK and emoji, and one paragraph wrapped and truncated at
// several widths — all shaped by Pango and drawn at the output's scale.
// Usage: text [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import Glibc
import Strata
import StrataTesting

@MainActor
final class TextShowcase {
    let window = Window(title: "Strata text", size: Size(width: 900, height: 640))

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
            x += width + 32
        }
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
