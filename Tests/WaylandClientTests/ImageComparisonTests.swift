import Glibc
import PixmanRender
import StrataTesting
import Testing
import LayerKitTesting

/// Comparing captures with references: tolerance, region, allowed differing
/// pixels, the pictures written on a mismatch, and recording references.
@Suite("Image comparison", .isolatedLayerContext)
struct ImageComparisonTests {
    func image(_ w: Int, _ h: Int, _ word: UInt32, patch: (x: Int, y: Int, word: UInt32)? = nil) -> RenderedImage {
        var pixels = [UInt32](repeating: word, count: w * h)
        if let patch { pixels[patch.y * w + patch.x] = patch.word }
        return RenderedImage(width: w, height: h, pixels: pixels)
    }

    func directory() -> String {
        var template = Array("/tmp/strata-compare-XXXXXX".utf8CString)
        return String(cString: mkdtemp(&template)!)
    }

    @Test("tolerance, region and the number of differing pixels decide; a size mismatch never passes")
    func comparisons() {
        let expected = image(8, 8, 0xff33_66cc)
        let close = image(8, 8, 0xff34_66cc)                                  // one channel off by 1
        let spot = image(8, 8, 0xff33_66cc, patch: (x: 6, y: 6, word: 0xffff_0000))
        #expect(!ImageComparison().compare(close, with: expected).passed)
        #expect(ImageComparison(tolerance: 1).compare(close, with: expected).passed)
        let outcome = ImageComparison().compare(spot, with: expected)
        #expect(!outcome.passed && outcome.differingPixels == 1 && outcome.largestDifference == 0xcc)
        #expect(ImageComparison(maximumDifferingPixels: 1).compare(spot, with: expected).passed)
        #expect(ImageComparison(region: (x: 0, y: 0, width: 4, height: 4)).compare(spot, with: expected).passed)
        #expect(ImageComparison(region: (x: -10, y: -10, width: 1000, height: 1000)).compare(spot, with: expected).differingPixels == 1)
        #expect(!ImageComparison(tolerance: 255, maximumDifferingPixels: 1000).compare(image(4, 8, 0), with: expected).passed)
    }

    @Test("a mismatch writes the actual, expected and diff pictures and names them; a missing reference says how to record one")
    func mismatchPictures() throws {
        let dir = directory()
        defer { _ = system("rm -rf '\(dir)'") }
        let expected = image(8, 8, 0xff33_66cc)
        let actual = image(8, 8, 0xff33_66cc, patch: (x: 2, y: 3, word: 0xff00_ff00))
        #expect(throws: Never.self) { try ImageComparison().check(expected, against: expected, name: "same", artifactsDirectory: dir) }
        do {
            try ImageComparison().check(actual, against: expected, name: "card", artifactsDirectory: dir)
            Issue.record("a mismatch passed")
        } catch {
            #expect(error.description.contains("card: 1 pixels differ"), "\(error)")
            #expect(error.actualPath == dir + "/card-actual.png" && error.expectedPath == dir + "/card-expected.png")
            let diff = try RenderedImage(contentsOfFile: try #require(error.diffPath))
            #expect(diff.rgba8(x: 2, y: 3) == (255, 0, 0, 255) && diff.rgba8(x: 0, y: 0).r != 255)
        }
        do {
            try ImageComparison().check(actual, againstReference: dir + "/missing.png", artifactsDirectory: dir)
            Issue.record("a missing reference passed")
        } catch {
            #expect(error.description.contains("STRATA_RECORD_REFERENCES=1") && error.actualPath == dir + "/missing-actual.png", "\(error)")
        }
        // Recording writes the reference; the next check passes against it.
        setenv("STRATA_RECORD_REFERENCES", "1", 1)
        try ImageComparison().check(actual, againstReference: dir + "/ref.png", artifactsDirectory: dir)
        unsetenv("STRATA_RECORD_REFERENCES")
        #expect(throws: Never.self) { try ImageComparison().check(actual, againstReference: dir + "/ref.png", artifactsDirectory: dir) }
    }
}
