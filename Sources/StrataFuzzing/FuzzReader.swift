import Glibc
import LayerKit

/// Reads a fuzzer's bytes as a program's choices; past the end every read is 0.
/// Shared by the layer-tree and the app fuzzers; each adds readers of its own
/// values in an extension.
public struct FuzzReader {
    public let bytes: [UInt8]
    var at = 0

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { at >= bytes.count }

    public mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    public mutating func index(_ count: Int) -> Int { count > 0 ? Int(byte()) % count : 0 }

    /// Ordinary numbers mostly; the ones that break things often.
    public static let hostile: [Double] = [0, 1, -1, 0.5, 2, 10, 24, 48, -48, 1e-9, -1e-9, 1e6, -1e6, 1e9, 1e12, -1e12,
                                           .nan, .infinity, -.infinity, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                           .leastNonzeroMagnitude, 33_000, -33_000, 65_536, 0.999_999,
                                           1e19, -1e19, 1e-13, 8e-179, 1e15, 1e305]

    public mutating func number() -> Double {
        let b = byte()
        if b < 160 { return Double(b) - 40 + Double(byte()) / 256 }
        return Self.hostile[Int(b - 160) % Self.hostile.count]
    }

    public mutating func point() -> Point { Point(x: number(), y: number()) }
    public mutating func rect() -> Rect { Rect(x: number(), y: number(), width: number(), height: number()) }

    /// A number as one of the types a program may pass by key.
    public mutating func anyNumber() -> Any {
        let n = number()
        let whole = n.isFinite ? max(-1e15, min(1e15, n)).rounded() : 0
        switch byte() % 8 {
        case 0: return n
        case 1: return Float(n)
        case 2: return Int(whole)
        case 3: return Int8(clamping: Int(whole))
        case 4: return UInt64(clamping: Int(whole))
        case 5: return Int32(clamping: Int(whole))
        case 6: return UInt8(clamping: Int(whole))
        default: return Int16(clamping: Int(whole))
        }
    }
}

/// A committed corpus of fuzzer inputs, replayed by the tests.
public enum FuzzCorpus {
    /// The files in `directory` (dot files left out), sorted.
    public static func inputs(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    /// The bytes of one input; nil when it cannot be read.
    public static func bytes(of path: String) -> [UInt8]? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var c = fgetc(f)
        while c != EOF { bytes.append(UInt8(c)); c = fgetc(f) }
        return bytes
    }
}
