// libFuzzer's entry into LayerTreeFuzzer, compiled by scripts/fuzz with
// -sanitize=fuzzer,address against the modules it builds with the same flags
// (libFuzzer brings main). Not a SwiftPM target.
import StrataFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated {
        do {
            try LayerTreeFuzzer.run(bytes)
        } catch {
            fatalError("property broken: \(error)")
        }
    }
    return 0
}
