import Glibc

/// Wall-clock seconds from the monotonic clock.
func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    guard !s.isEmpty else { return .nan }
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// One reported figure: printed as a line a person reads and a machine parses.
struct Figure {
    let scene: String
    let metric: String
    let value: Double
    let unit: String
    let repetitions: Int

    func print() {
        let v = value >= 100 ? String(Int(value.rounded())) : format(value)
        Swift.print("\(scene)\t\(metric)\t\(v) \(unit)\t(\(repetitions) samples, \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores)")
    }
}

/// Three significant digits.
func format(_ v: Double) -> String {
    guard v.isFinite, v != 0 else { return "\(v)" }
    let digits = max(0, 2 - Int(log10(abs(v)).rounded(.down)))
    let scale = pow(10, Double(digits))
    return "\((v * scale).rounded() / scale)"
}
