import Glibc
import PixmanRender
import Strata
import StrataTesting
import WaylandClient

/// A 500-word paragraph in several scripts (Latin, Arabic, Hebrew, Devanagari, CJK, emoji).
let multilingualParagraph: String = {
    let sentences = [
        "The quick brown fox jumps over the lazy dog while the office affine waffles cool.",
        "مرحبا بالعالم هذا نص عربي قصير للاختبار.",
        "שלום עולם זהו טקסט קצר בעברית.",
        "नमस्ते दुनिया यह हिन्दी का छोटा पाठ है।",
        "你好世界 这是一段中文 日本語のテキスト 😀 🎉",
    ]
    var words: [Substring] = []
    var i = 0
    while words.count < 500 {
        words += sentences[i % sentences.count].split(separator: " ")
        i += 1
    }
    return words.prefix(500).joined(separator: " ")
}()

/// X1 text: a 500-word multilingual paragraph laid out and drawn by a `Label`
/// (Pango layout, FreeType glyphs in pixman's cache), and drawn again from the
/// cached layout and glyphs — next to Pango drawing the same paragraph through
/// cairo in a C program this benchmark compiles and runs, in the same run.
@MainActor
func sceneText500(repetitions: Int) -> [Figure] {
    let width = 600.0, size = 15.0
    let label = Label(frame: Rect(x: 0, y: 0, width: width, height: 4000))
    label.numberOfLines = 0
    label.font = .systemFont(ofSize: size)
    let context = PixmanDrawingContext(bounds: label.bounds, scale: 1)
    var first: [Double] = [], again: [Double] = []
    for r in 0..<repetitions {
        label.text = multilingualParagraph + (r % 2 == 0 ? "" : " ")   // a new text: a new layout
        let t0 = now()
        label.draw(in: context)
        let t1 = now()
        label.draw(in: context)
        let t2 = now()
        first.append(t1 - t0)
        again.append(t2 - t1)
    }
    var figures = [
        Figure(scene: "X1 text-500", metric: "Strata layout + draw", value: median(first) * 1e6, unit: "µs", repetitions: repetitions),
        Figure(scene: "X1 text-500", metric: "Strata redraw (cached layout and glyphs)", value: median(again) * 1e6, unit: "µs", repetitions: repetitions),
    ]
    if let reference = runPangoCairoReference(width: Int(width), size: size, repetitions: repetitions) {
        figures += [
            Figure(scene: "X1 text-500", metric: "Pango+cairo layout + draw (C)", value: reference.first, unit: "µs", repetitions: repetitions),
            Figure(scene: "X1 text-500", metric: "Pango+cairo redraw (C)", value: reference.again, unit: "µs", repetitions: repetitions),
            Figure(scene: "X1 text-500", metric: "ratio layout + draw Strata/Pango+cairo", value: median(first) * 1e6 / reference.first, unit: "x", repetitions: repetitions),
            Figure(scene: "X1 text-500", metric: "ratio redraw Strata/Pango+cairo", value: median(again) * 1e6 / reference.again, unit: "x", repetitions: repetitions),
        ]
    }
    return figures
}

/// Compiles Benchmarks/Reference/pango-cairo-text.c and runs it on the same paragraph.
func runPangoCairoReference(width: Int, size: Double, repetitions: Int) -> (first: Double, again: Double)? {
    let text = "/tmp/strata-bench-paragraph-\(getpid()).txt"
    guard let f = fopen(text, "w") else { return nil }
    fputs(multilingualParagraph, f)
    fclose(f)
    defer { unlink(text) }
    guard let values = runCReference("pango-cairo-text.c", flags: "$(pkg-config --cflags --libs pangocairo)",
                                     arguments: "\(text) \(width) \(size) \(repetitions)"),
          let first = values["layout+draw"], let again = values["redraw"] else {
        print("X1 text-500: the Pango+cairo reference did not build or run (needs cc and libpango1.0-dev)")
        return nil
    }
    return (first, again)
}

/// A 100,000-row `ListView` in a 400×720 window on headless weston, flung by a
/// finger up and down every 0.8 s (touch events through the window's input
/// path, on the real clock); frames per second and p99 callback→commit.
@MainActor
func sceneListFling() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 400, height: 720, repaintWindow: 15)
    let display = try useApplication(on: weston)
    let app = Application.shared
    defer { app.disconnect() }
    final class Rows: ListDataSource {
        func numberOfRows(in list: ListView) -> Int { 100_000 }
        func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.textLabel.text = "Row \(row) — fling me" }
    }
    let rows = Rows()
    let window = Window(title: "list", size: Size(width: 400, height: 720))
    let list = ListView(frame: Rect(x: 0, y: 0, width: 400, height: 720))
    list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
    list.dataSource = rows
    window.rootView.addSubview(list)
    window.show()
    window.isFullscreen = true
    Transaction.flush()
    var down = true
    func fling() {
        let from = down ? 600.0 : 120.0, step = down ? -80.0 : 80.0
        window.handle(.touchDown(id: 1, at: Point(x: 200, y: from)))
        for i in 1...6 {
            _ = MediaTimer.schedule(after: Double(i) / 120) {
                window.handle(.touchMoved(id: 1, to: Point(x: 200, y: from + step * Double(i))))
                if i == 6 { window.handle(.touchUp(id: 1)) }
            }
        }
        down.toggle()
    }
    fling()
    var timer: MediaTimer?
    func again() { timer = MediaTimer.schedule(after: 0.8) { fling(); again() } }
    again()
    defer { timer?.cancel() }
    var figures = try measureAnimatingWindow(window.toplevel!, display, scene: "X list-fling-100k", loop: app.loop)
    figures.append(Figure(scene: "X list-fling-100k", metric: "row views made", value: Double(list.cellsMade), unit: "", repetitions: 1))
    return figures
}

/// X2 `textview-1mb`: a `TextView` (600×800 in an offscreen window) holding
/// 1.1 MB — 12,000 paragraphs of 60–100 characters. Measured, each with the
/// window's pixels made (`snapshot()`): opening the text; a key typed in the
/// middle of the document; a screen scrolled. Next to, in the same run, the
/// window's snapshot with nothing changed (the compositing every frame pays)
/// and Pango laying out the one paragraph a key changes (the least a key
/// costs); a key's ratio is against their sum.
@MainActor
func sceneTextView1MB(repetitions: Int) -> [Figure] {
    let clock = ManualMediaClock(now: 1000)
    MediaTime.clock = clock
    var paragraphs: [String] = []
    for i in 0..<12_000 { paragraphs.append("Paragraph \(i): " + String(repeating: "lorem ipsum dolor ", count: 4 + i % 3)) }
    let document = paragraphs.joined(separator: "\n")
    let window = Window(title: "X2", size: Size(width: 600, height: 800))
    let view = TextView(frame: Rect(x: 0, y: 0, width: 600, height: 800))
    window.rootView.addSubview(view)
    window.show()
    _ = window.snapshot()
    // The paragraph a key in the middle changes, laid out by a label as wide as the text view's lines.
    let label = Label(frame: .zero)
    label.numberOfLines = 0
    let paragraph = paragraphs[paragraphs.count / 2]
    var open: [Double] = [], key: [Double] = [], scroll: [Double] = [], still: [Double] = [], pango: [Double] = []
    for r in 0..<repetitions {
        let t0 = now()
        view.text = document + (r % 2 == 0 ? "" : " ")
        _ = window.snapshot()
        let t1 = now()
        open.append(t1 - t0)
        // The middle of the document in view, the caret there.
        let middle = view.text.utf8.index(view.text.startIndex, offsetBy: document.utf8.count / 2)
        view.selectedTextRange = middle..<middle
        _ = window.snapshot()
        let t2 = now()
        view.insertText("x")
        _ = window.snapshot()
        let t3 = now()
        view.setContentOffset(Point(x: 0, y: view.contentOffset.y + 780), animated: false)
        _ = window.snapshot()
        let t4 = now()
        _ = window.snapshot()
        let t5 = now()
        label.text = paragraph + (r % 2 == 0 ? "" : " ")   // a new text: a new layout
        _ = label.sizeThatFits(Size(width: 590, height: 10_000))
        let t6 = now()
        key.append(t3 - t2)
        scroll.append(t4 - t3)
        still.append(t5 - t4)
        pango.append(t6 - t5)
        clock.advance(by: 1)
    }
    let scene = "X2 textview-1mb"
    let k = median(key) * 1e6, s = median(still) * 1e6, p = median(pango) * 1e6
    return [
        Figure(scene: scene, metric: "open 1.1 MB, first pixels", value: median(open) * 1e3, unit: "ms", repetitions: repetitions),
        Figure(scene: scene, metric: "a key in the middle, pixels", value: k, unit: "µs", repetitions: repetitions),
        Figure(scene: scene, metric: "a screen scrolled, pixels", value: median(scroll) * 1e6, unit: "µs", repetitions: repetitions),
        Figure(scene: scene, metric: "snapshot, nothing changed", value: s, unit: "µs", repetitions: repetitions),
        Figure(scene: scene, metric: "Pango layout of the changed paragraph", value: p, unit: "µs", repetitions: repetitions),
        Figure(scene: scene, metric: "ratio key/(snapshot + paragraph layout)", value: k / (s + p), unit: "x", repetitions: repetitions),
    ]
}
