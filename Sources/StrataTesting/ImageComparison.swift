import Glibc
import PixmanRender

/// Compares a captured image with an expected one — a reference PNG kept with
/// the tests, or an offscreen render of the same tree at the same media time —
/// the way a compositor test needs: a per-channel tolerance, an optional region,
/// and a number of pixels allowed to differ (anti-aliased edges). On a mismatch
/// it writes the actual image, the expected one and a diff picture and names them
/// in the error; with `STRATA_RECORD_REFERENCES=1` it records references instead.
public struct ImageComparison: Sendable {
    /// The largest difference of any channel (premultiplied, 0–255) still counted as equal.
    public var tolerance: Int
    /// The part compared (`x`, `y`, `width`, `height` in pixels); nil: the whole image.
    public var region: (x: Int, y: Int, width: Int, height: Int)?
    /// How many pixels may differ beyond the tolerance.
    public var maximumDifferingPixels: Int

    public init(tolerance: Int = 0, region: (x: Int, y: Int, width: Int, height: Int)? = nil, maximumDifferingPixels: Int = 0) {
        self.tolerance = max(0, tolerance)
        self.region = region
        self.maximumDifferingPixels = max(0, maximumDifferingPixels)
    }

    /// What a comparison found.
    public struct Outcome: Sendable, CustomStringConvertible {
        /// Pixels differing beyond the tolerance (within the region).
        public let differingPixels: Int
        /// The largest channel difference seen.
        public let largestDifference: Int
        public let passed: Bool
        public var description: String {
            passed ? "match (\(differingPixels) pixels differ, largest difference \(largestDifference))"
                : "\(differingPixels) pixels differ beyond the tolerance (largest difference \(largestDifference))"
        }
    }

    /// A mismatch, with where its pictures were written.
    public struct Mismatch: Error, CustomStringConvertible {
        public let reason: String
        public let actualPath: String?
        public let expectedPath: String?
        public let diffPath: String?
        public var description: String {
            reason + [actualPath.map { " — actual: \($0)" }, expectedPath.map { ", expected: \($0)" }, diffPath.map { ", diff: \($0)" }]
                .compactMap { $0 }.joined()
        }
    }

    /// Compares two images of the same size; a size mismatch never passes.
    public func compare(_ actual: RenderedImage, with expected: RenderedImage) -> Outcome {
        guard actual.width == expected.width, actual.height == expected.height else {
            return Outcome(differingPixels: actual.width * actual.height, largestDifference: 255, passed: false)
        }
        let (x0, y0, w, h) = clampedRegion(width: actual.width, height: actual.height)
        var differing = 0, largest = 0
        for y in y0..<(y0 + h) {
            for x in x0..<(x0 + w) {
                let d = Self.difference(actual.word(x: x, y: y), expected.word(x: x, y: y))
                largest = max(largest, d)
                if d > tolerance { differing += 1 }
            }
        }
        return Outcome(differingPixels: differing, largestDifference: largest, passed: differing <= maximumDifferingPixels)
    }

    /// Checks `actual` against the reference PNG at `referencePath`. With
    /// `STRATA_RECORD_REFERENCES=1` in the environment the reference is written
    /// (recorded) instead and the check passes. A mismatch, or a missing or
    /// unreadable reference, throws ``Mismatch`` after writing `NAME-actual.png`,
    /// `NAME-expected.png` and `NAME-diff.png` into `artifactsDirectory`.
    public func check(_ actual: RenderedImage, againstReference referencePath: String, artifactsDirectory: String) throws(Mismatch) {
        if let record = getenv("STRATA_RECORD_REFERENCES"), String(cString: record) == "1" {
            do { try actual.writePNG(to: referencePath) } catch {
                throw Mismatch(reason: "cannot record \(referencePath): \(error)", actualPath: nil, expectedPath: nil, diffPath: nil)
            }
            return
        }
        let expected: RenderedImage
        do { expected = try RenderedImage(contentsOfFile: referencePath) } catch {
            let actualPath = Self.write(actual, artifactsDirectory, Self.stem(referencePath) + "-actual.png")
            throw Mismatch(reason: "no readable reference at \(referencePath) (\(error)); record one with STRATA_RECORD_REFERENCES=1",
                           actualPath: actualPath, expectedPath: nil, diffPath: nil)
        }
        try check(actual, against: expected, name: Self.stem(referencePath), artifactsDirectory: artifactsDirectory)
    }

    /// Checks `actual` against `expected` (an offscreen render of the same tree, say);
    /// on a mismatch writes the three pictures as `NAME-….png` and throws.
    public func check(_ actual: RenderedImage, against expected: RenderedImage, name: String, artifactsDirectory: String) throws(Mismatch) {
        let outcome = compare(actual, with: expected)
        guard !outcome.passed else { return }
        let sizes = actual.width == expected.width && actual.height == expected.height
            ? "" : " (sizes \(actual.width)x\(actual.height) and \(expected.width)x\(expected.height))"
        throw Mismatch(reason: "\(name): \(outcome)\(sizes)",
                       actualPath: Self.write(actual, artifactsDirectory, name + "-actual.png"),
                       expectedPath: Self.write(expected, artifactsDirectory, name + "-expected.png"),
                       diffPath: sizes.isEmpty ? Self.write(diff(actual, expected), artifactsDirectory, name + "-diff.png") : nil)
    }

    /// The expected image dimmed, with the pixels that differ beyond the tolerance in red.
    public func diff(_ actual: RenderedImage, _ expected: RenderedImage) -> RenderedImage {
        let (x0, y0, w, h) = clampedRegion(width: expected.width, height: expected.height)
        var pixels = expected.pixels.map { p -> UInt32 in
            let gray = (((p >> 16) & 0xff) + ((p >> 8) & 0xff) + (p & 0xff)) / 3 / 3 + 0x20
            return 0xff00_0000 | gray << 16 | gray << 8 | gray
        }
        for y in y0..<(y0 + h) {
            for x in x0..<(x0 + w) where Self.difference(actual.word(x: x, y: y), expected.word(x: x, y: y)) > tolerance {
                pixels[y * expected.width + x] = 0xffff_0000
            }
        }
        return RenderedImage(width: expected.width, height: expected.height, pixels: pixels)
    }

    private func clampedRegion(width: Int, height: Int) -> (Int, Int, Int, Int) {
        guard let r = region else { return (0, 0, width, height) }
        let x0 = min(max(0, r.x), width), y0 = min(max(0, r.y), height)
        return (x0, y0, max(0, min(r.width, width - x0)), max(0, min(r.height, height - y0)))
    }

    private static func difference(_ a: UInt32, _ b: UInt32) -> Int {
        var largest = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            largest = max(largest, abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)))
        }
        return largest
    }

    private static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(".png") ? String(name.dropLast(4)) : name
    }

    /// Writes a picture; its path, or nil when it could not be written.
    private static func write(_ image: RenderedImage, _ directory: String, _ name: String) -> String? {
        let path = directory + "/" + name
        return (try? image.writePNG(to: path)) != nil ? path : nil
    }
}
