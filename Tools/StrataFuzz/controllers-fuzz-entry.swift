// libFuzzer's entry into ControllerFuzzer, compiled by `scripts/fuzz SECONDS
// controllers` like the app entry (libFuzzer brings main). Not a SwiftPM target.
import Foundation
import StrataAppFuzzing

private let stepBudget = ProcessInfo.processInfo.environment["STRATA_FUZZ_STEP_BUDGET"]
    .flatMap(Double.init) ?? AppFuzzer.stepBudget

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    MainActor.assumeIsolated {
        do {
            try ControllerFuzzer.run(bytes, stepBudget: stepBudget)
        } catch {
            fatalError("property broken: \(error)")
        }
    }
    return 0
}
