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

/// The controller fuzzer's corpus (Tests/Fuzz/controller-corpus): each input
/// runs as a program over view controllers and must keep the same properties,
/// and leave nothing alive after its window closed.
@MainActor
@Suite("Controller fuzz corpus", .serialized, .isolatedLayerContext)
struct ControllerFuzzCorpusTests {
    nonisolated static let directory = String(AppFuzzCorpusTests.directory.dropLast("app-corpus".count)) + "controller-corpus"

    nonisolated static var inputs: [String] { FuzzCorpus.inputs(in: directory) }

    @Test("every controller corpus input keeps the properties", arguments: ControllerFuzzCorpusTests.inputs)
    func replay(_ name: String) throws {
        guard let bytes = FuzzCorpus.bytes(of: Self.directory + "/" + name) else { Issue.record("cannot read \(name)"); return }
        #expect(throws: Never.self) { try ControllerFuzzer.run(bytes, stepBudget: 5 * AppFuzzer.stepBudget) }
    }

    @Test("the corpus is there")
    func corpusPresent() { #expect(Self.inputs.count >= 12) }
}
