import Glibc
import PixmanRender
import StrataTesting
import Testing

/// The gallery's layer-classes section (issue 28, item 8), run as a program
/// offscreen and on headless weston: each tile draws its class.
@Suite("The gallery's layer classes")
struct LayerGalleryTests {
    @Test("every tile draws: shimmer bars, equalizer bars, a cube's faces, stretched buttons, text, three gradients, confetti and a blurred sidebar; light and dark")
    func tiles() throws {
        for style in ["light", "dark"] {
            let shot = try ExampleAppearanceTests.render("gallery", ["--section", "layers", "--appearance", style])
            #expect(shot.width == 640 && shot.height == 485, "\(shot.width) × \(shot.height)")
            Self.expectTiles(shot, style)
        }
    }

    @Test("live on headless weston: frames keep coming while the layers animate, and the screen shows every tile")
    func onWeston() throws {
        let binary = try ShellExamplesOnCompositorsTests.binary("gallery")
        let directory = makeTemporaryDirectory("strata-gallery-weston")
        defer { removeTemporaryDirectory(directory) }
        var environment: [String: String] = [:]
        environment["WAYLAND_DISPLAY"] = ""   // none named: the program starts its own headless weston
        let child = try Subprocess.spawn([binary, "--section", "layers", "--seconds", "2.5", "--screenshot", directory + "/shot.png"],
                                         environment: environment, directory: nil, logPath: directory + "/log")
        #expect(child.wait(timeout: 90) == 0, "\(tail(of: directory + "/log", lines: 8))")
        let log = tail(of: directory + "/log", lines: 8)
        #expect(log.contains("started a headless weston"), "\(log)")
        // "frames: N, callbacks: M": animating, the window draws frame after frame.
        let frames = log.split(separator: "\n").first { $0.hasPrefix("frames: ") }
            .flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) } ?? 0
        #expect(frames > 20, "\(log)")
        let shot = try RenderedImage(contentsOfFile: directory + "/shot.png")
        Self.expectTiles(shot, "weston")
    }

    static func expectTiles(_ shot: RenderedImage, _ style: String) {
        func px(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) { let p = shot.rgba8(x: x, y: y); return (Int(p.r), Int(p.g), Int(p.b)) }
        func grey(_ p: (r: Int, g: Int, b: Int)) -> Bool { abs(p.r - p.g) < 8 && abs(p.g - p.b) < 8 }
        // Shimmer: the first bar is grey, between its panel's shade and black.
        let bar = px(60, 44)
        #expect(grey(bar) && bar.r > 150 && bar.r < 245, "\(style) shimmer \(bar)")
        // Equalizer: orange-yellow bars along the bottom of the second tile.
        var orange = 0
        for x in stride(from: 250, to: 390, by: 2) where px(x, 130).r > 200 && px(x, 130).b < 120 { orange += 1 }
        #expect(orange > 20, "\(style) equalizer: \(orange) orange columns")
        // Cube: the middle of the third tile is a saturated face colour.
        let face = px(525, 90)
        #expect(max(face.r, face.g, face.b) - min(face.r, face.g, face.b) > 80, "\(style) cube face \(face)")
        // Buttons: the stretched face's bluish grey inside the first button.
        let button = px(60, 203)
        #expect(button.b > button.r && button.r > 120, "\(style) button \(button)")
        // Text: coloured ink in the fifth tile.
        var ink = 0
        for y in 200..<250 { for x in 240..<400 { let p = px(x, y); if max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 80 { ink += 1 } } }
        #expect(ink > 100, "\(style) text: \(ink) coloured pixels")
        // Confetti: coloured pieces near the top of the seventh tile.
        var confetti = 0
        for y in 326..<400 { for x in 20..<210 { let p = px(x, y); if max(p.r, p.g, p.b) - min(p.r, p.g, p.b) > 100 { confetti += 1 } } }
        #expect(confetti > 30, "\(style) confetti: \(confetti) coloured pixels")
        // The sidebar: over the balls, no pixel as saturated as a ball's own colour (blurred and tinted).
        var vivid = 0, coloured = 0
        for y in stride(from: 330, to: 460, by: 2) {
            for x in stride(from: 322, to: 412, by: 2) {
                let p = px(x, y), chroma = max(p.r, p.g, p.b) - min(p.r, p.g, p.b)
                if chroma > 200 { vivid += 1 }
                if chroma > 15 { coloured += 1 }
            }
        }
        #expect(vivid == 0 && coloured > 20, "\(style) sidebar: \(vivid) vivid, \(coloured) coloured")
        // Gradients: each of the three has far apart colours among a corner, near the centre and the other corner.
        for x0 in [440, 500, 560] {
            let samples = [px(x0 + 6, 216), px(x0 + 28, 243), px(x0 + 44, 264)]
            var spread = 0
            for a in samples { for b in samples { spread = max(spread, abs(a.r - b.r) + abs(a.g - b.g) + abs(a.b - b.b)) } }
            #expect(spread > 60, "\(style) gradient at \(x0): \(samples)")
        }
    }

    @Test("an unknown section is refused with status 2")
    func unknownSection() throws {
        let binary = try ShellExamplesOnCompositorsTests.binary("gallery")
        let directory = makeTemporaryDirectory("strata-gallery")
        defer { removeTemporaryDirectory(directory) }
        let child = try Subprocess.spawn([binary, "--section", "nope"], environment: ["STRATA_OFFSCREEN": directory], directory: nil,
                                         logPath: directory + "/log")
        #expect(child.wait(timeout: 30) == 2)
        #expect(tail(of: directory + "/log", lines: 2).contains("no section 'nope'"))
    }
}
