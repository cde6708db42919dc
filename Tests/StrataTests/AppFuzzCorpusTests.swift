import Glibc
import StrataAppFuzzing
import Testing

/// The app fuzzer's corpus (Tests/Fuzz/app-corpus): seeds and inputs that broke
/// the toolkit once. Each runs as an app program over the public API, without
/// the fuzzer, and must keep every property (no crash, finite presentation
/// frames, a consistent tree, each step within its time budget).
@MainActor
@Suite("App fuzz corpus", .serialized)
struct AppFuzzCorpusTests {
    nonisolated static let directory: String = {
        let here = String(#filePath)
        return String(here[..<here.firstRange(of: "/StrataTests/")!.lowerBound]) + "/Fuzz/app-corpus"
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

    @Test("every app corpus input keeps the properties", arguments: AppFuzzCorpusTests.inputs)
    func replay(_ name: String) throws {
        guard let f = fopen(Self.directory + "/" + name, "r") else { Issue.record("cannot read \(name)"); return }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var c = fgetc(f)
        while c != EOF { bytes.append(UInt8(c)); c = fgetc(f) }
        #expect(throws: Never.self) { try AppFuzzer.run(bytes) }
    }

    @Test("the corpus is there")
    func corpusPresent() { #expect(Self.inputs.count >= 20) }
}
