import Glibc
import PixmanRender
import StrataTesting
import Testing

/// The window examples as programs, rendered offscreen: each follows light and
/// dark, and the ones with a page of their own mirror it right to left (issue 25).
@Suite("Examples in both styles and right to left")
struct ExampleAppearanceTests {
    /// Runs `program` offscreen for a moment and reads its window's last frame.
    static func render(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> RenderedImage {
        let binary = try ShellExamplesOnCompositorsTests.binary(program)
        let directory = makeTemporaryDirectory("strata-example")
        defer { removeTemporaryDirectory(directory) }
        var env = environment
        env["STRATA_OFFSCREEN"] = directory
        let child = try Subprocess.spawn([binary, "--seconds", "0.4"] + arguments, environment: env, directory: nil, logPath: directory + "/log")
        #expect(child.wait(timeout: 60) == 0, "\(program) \(arguments): \(tail(of: directory + "/log", lines: 5))")
        let frames = listDirectory(directory).filter { $0.hasSuffix(".png") && !$0.hasSuffix("-filmstrip.png") }
        let frame = try #require(frames.first, "\(program) wrote no frame")
        return try RenderedImage(contentsOfFile: directory + "/" + frame)
    }

    /// The mean of the image's red, green and blue, 0–255.
    static func meanBrightness(_ image: RenderedImage) -> Double {
        var sum = 0, count = 0
        for y in stride(from: 0, to: image.height, by: 4) {
            for x in stride(from: 0, to: image.width, by: 4) {
                let p = image.rgba8(x: x, y: y)
                sum += Int(p.r) + Int(p.g) + Int(p.b)
                count += 3
            }
        }
        return Double(sum) / Double(max(count, 1))
    }

    @Test("every window example is light with --appearance light and dark with --appearance dark (its backgrounds come from the system colours)",
          arguments: ["strata-demo", "gallery", "clock", "controls", "todo", "text", "form", "settings"])
    func bothStyles(_ program: String) throws {
        let light = try Self.meanBrightness(Self.render(program, ["--appearance", "light"]))
        let dark = try Self.meanBrightness(Self.render(program, ["--appearance", "dark"]))
        #expect(light > 180, "\(program) light: mean \(light)")
        #expect(dark < 70, "\(program) dark: mean \(dark)")
    }

    static func isGrey(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool {
        abs(Int(p.r) - Int(p.g)) <= 4 && abs(Int(p.g) - Int(p.b)) <= 4 && p.r < 240 && p.r > 100
    }

    static func isMagenta(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r > 240 && p.g < 20 && p.b > 240 }

    @Test("in a Hebrew session the demo's track is on the left and the gallery's first tile on the right; the same programs in English are as before")
    func rightToLeft() throws {
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        let hebrew = ["LANG": "he_IL.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        // The demo's track: 220 wide with a grey border, 40 from the page's trailing edge.
        let demo = try Self.render("strata-demo", ["--appearance", "light"], environment: english)
        #expect(Self.isGrey(demo.rgba8(x: 599, y: 260)) && !Self.isGrey(demo.rgba8(x: 40, y: 260)))
        let mirroredDemo = try Self.render("strata-demo", ["--appearance", "light"], environment: hebrew)
        #expect(Self.isGrey(mirroredDemo.rgba8(x: 40, y: 260)) && !Self.isGrey(mirroredDemo.rgba8(x: 599, y: 260)))
        // The gallery's seventh tile (actions disabled: its first square is down at once) leads its row.
        let gallery = try Self.render("gallery", ["--appearance", "light"], environment: english)
        #expect(Self.isMagenta(gallery.rgba8(x: 55, y: 430)) && !Self.isMagenta(gallery.rgba8(x: 465, y: 430)))
        let mirroredGallery = try Self.render("gallery", ["--appearance", "light"], environment: hebrew)
        #expect(Self.isMagenta(mirroredGallery.rgba8(x: 465, y: 430)) && !Self.isMagenta(mirroredGallery.rgba8(x: 55, y: 430)))
    }

    static func isRed(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool { p.r > 180 && p.g < 120 && p.b < 120 }

    /// How many red pixels are in the rectangle (the form's messages are red text).
    static func redPixels(_ image: RenderedImage, x: Range<Int>, y: Range<Int>) -> Int {
        var n = 0
        for py in y { for px in x where isRed(image.rgba8(x: px, y: py)) { n += 1 } }
        return n
    }

    @Test("the form example: messages open under the fields that do not pass and the rows below move down; all pass, a welcome; right to left the form is mirrored")
    func form() throws {
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        let invalid = try Self.render("form", ["--appearance", "light", "--fill", "invalid"], environment: english)
        // 560 × 420: the fields from x 128 to 524, the email field at y 126–160, its message below.
        #expect(Self.redPixels(invalid, x: 128..<420, y: 164..<180) > 50)
        #expect(Self.redPixels(invalid, x: 128..<420, y: 100..<125) == 0)
        // The password row moved down by the message: its field's border is near y 192, not 176.
        #expect(Self.redPixels(invalid, x: 128..<300, y: 230..<246) > 30)
        let valid = try Self.render("form", ["--appearance", "light", "--fill", "valid"], environment: english)
        #expect(Self.redPixels(valid, x: 0..<560, y: 0..<420) == 0)
        // "Welcome, Ada!" beside the button (grey text on the light background).
        var text = 0
        for y in 254..<272 { for x in 20..<150 where valid.rgba8(x: x, y: y).r < 200 { text += 1 } }
        #expect(text > 30)
        #expect(Self.meanBrightness(valid) > 180)
        // Right to left: the captions on the right, the fields and their messages on the left.
        let hebrew = ["LANG": "he_IL.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        let mirrored = try Self.render("form", ["--appearance", "light", "--fill", "invalid"], environment: hebrew)
        #expect(Self.redPixels(mirrored, x: 36..<432, y: 164..<180) > 50)
        #expect(Self.redPixels(mirrored, x: 440..<560, y: 0..<420) == 0)
    }

    @Test("the settings example: notifications' options are listed only while notifications are allowed; the colours tab is a grid of swatches")
    func settings() throws {
        let english = ["LANG": "en_US.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""]
        // 480 × 560: the "Sounds" row (white) at y ≈ 320 under "Allow notifications"; without it, the grouped background.
        let on = try Self.render("settings", ["--appearance", "light"], environment: english)
        let off = try Self.render("settings", ["--appearance", "light", "--notifications", "off"], environment: english)
        let white = { (p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) in p.r == 255 && p.g == 255 && p.b == 255 }
        #expect(white(on.rgba8(x: 200, y: 320)) && white(on.rgba8(x: 200, y: 368)))
        #expect(!white(off.rgba8(x: 200, y: 320)) && white(off.rgba8(x: 200, y: 272)))
        #expect(Self.redPixels(off, x: 0..<480, y: 0..<500) == 0)
        let colours = try Self.render("settings", ["--appearance", "light", "--tab", "colours"], environment: english)
        #expect(Self.isRed(colours.rgba8(x: 56, y: 144)))
        let blue = colours.rgba8(x: 240, y: 232)
        #expect(blue.b > 200 && blue.r < 60)
    }
}
