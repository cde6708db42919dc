import LayerKit
import StrataFuzzing
import Testing
import Glibc

/// The fuzzer's corpus (Tests/Fuzz/corpus): inputs that broke the engine or the
/// renderer once, and seeds. Each runs as a program over the public API, without
/// the fuzzer, and must keep every property (no crash, finite presentation
/// values, damage-tracked frames equal to full repaints).
@MainActor
@Suite("Fuzz corpus", .serialized)
struct FuzzCorpusTests {
    nonisolated static let directory: String = {
        let here = String(#filePath)
        return String(here[..<here.firstRange(of: "/PixmanRenderTests/")!.lowerBound]) + "/Fuzz/corpus"
    }()

    nonisolated static var inputs: [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }

    @Test("every corpus input keeps the properties", arguments: FuzzCorpusTests.inputs)
    func replay(_ name: String) throws {
        guard let f = fopen(Self.directory + "/" + name, "r") else { throw Unreadable(name: name) }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var c = fgetc(f)
        while c != EOF { bytes.append(UInt8(c)); c = fgetc(f) }
        #expect(throws: Never.self) { try LayerTreeFuzzer.run(bytes) }
    }

    @Test("the corpus is there")
    func corpusPresent() {
        #expect(Self.inputs.count >= 8)
    }

    struct Unreadable: Error { let name: String }
}
