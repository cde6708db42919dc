import Glibc
import StrataAppFuzzing
import StrataFuzzing
import Testing
import LayerKitTesting

/// The app fuzzer's corpus (Tests/Fuzz/app-corpus): seeds and inputs that broke
/// the toolkit once. Each runs as an app program over the public API, without
/// the fuzzer, and must keep every property (no crash, finite presentation
/// frames, a consistent tree, each step within its time budget).
@MainActor
@Suite("App fuzz corpus", .serialized, .isolatedLayerContext)
struct AppFuzzCorpusTests {
    nonisolated static let directory: String = {
        let here = String(#filePath)
        return String(here[..<here.firstRange(of: "/StrataTests/")!.lowerBound]) + "/Fuzz/app-corpus"
    }()

    nonisolated static var inputs: [String] { FuzzCorpus.inputs(in: directory) }

    @Test("every app corpus input keeps the properties", arguments: AppFuzzCorpusTests.inputs)
    func replay(_ name: String) throws {
        guard let bytes = FuzzCorpus.bytes(of: Self.directory + "/" + name) else { Issue.record("cannot read \(name)"); return }
        // Unoptimized, and maybe beside other work: five times the fuzzer's budget per step.
        #expect(throws: Never.self) { try AppFuzzer.run(bytes, stepBudget: 5 * AppFuzzer.stepBudget) }
    }

    @Test("the corpus is there")
    func corpusPresent() { #expect(Self.inputs.count >= 20) }
}
