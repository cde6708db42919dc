// libFuzzer's entry into AppFuzzer, compiled by `scripts/fuzz SECONDS app` with
// -sanitize=fuzzer,address against the modules it builds with the same flags
// (libFuzzer brings main). Not a SwiftPM target.
import StrataAppFuzzing

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated {
        do {
            try AppFuzzer.run(bytes)
        } catch {
            fatalError("property broken: \(error)")
        }
    }
    return 0
}
