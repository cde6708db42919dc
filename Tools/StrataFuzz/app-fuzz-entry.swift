// libFuzzer's entry into AppFuzzer — or, built with -D STRATA_FUZZ_CONTROLLERS,
// into ControllerFuzzer — compiled by `scripts/fuzz SECONDS app|controllers` with
// -sanitize=fuzzer,address against the modules it builds with the same flags
// (libFuzzer brings main). Not a SwiftPM target.
import Foundation
import StrataAppFuzzing

// STRATA_FUZZ_STEP_BUDGET (seconds) loosens the per-step time budget for runs on
// a machine that is busy with other work, where a slow step says nothing.
private let stepBudget = ProcessInfo.processInfo.environment["STRATA_FUZZ_STEP_BUDGET"]
    .flatMap(Double.init) ?? AppFuzzer.stepBudget

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated {
        do {
            #if STRATA_FUZZ_CONTROLLERS
            try ControllerFuzzer.run(bytes, stepBudget: stepBudget)
            #else
            try AppFuzzer.run(bytes, stepBudget: stepBudget)
            #endif
        } catch {
            fatalError("property broken: \(error)")
        }
    }
    return 0
}
