import LayerKit
import StrataFuzzing
import Testing
import Glibc
import LayerKitTesting

/// The fuzzer's corpus (Tests/Fuzz/corpus): inputs that broke the engine or the
/// renderer once, and seeds. Each runs as a program over the public API, without
/// the fuzzer, and must keep every property (no crash, finite presentation
/// values, damage-tracked frames equal to full repaints).
@MainActor
@Suite("Fuzz corpus", .serialized, .isolatedLayerContext)
struct FuzzCorpusTests {
    nonisolated static let directory: String = {
        let here = String(#filePath)
        return String(here[..<here.firstRange(of: "/PixmanRenderTests/")!.lowerBound]) + "/Fuzz/corpus"
    }()

    nonisolated static var inputs: [String] { FuzzCorpus.inputs(in: directory) }

    @Test("every corpus input keeps the properties", arguments: FuzzCorpusTests.inputs)
    func replay(_ name: String) throws {
        guard let bytes = FuzzCorpus.bytes(of: Self.directory + "/" + name) else { Issue.record("cannot read \(name)"); return }
        #expect(throws: Never.self) { try LayerTreeFuzzer.run(bytes) }
    }

    @Test("the corpus is there")
    func corpusPresent() {
        #expect(Self.inputs.count >= 8)
    }
}
