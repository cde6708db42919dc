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

/// Compiles a C reference of Benchmarks/Reference with cc -O2 and `flags`, runs
/// it with `arguments`, and reads the "name value" lines it prints. Nil when it
/// does not build or run here.
func runCReference(_ file: String, flags: String = "", arguments: String) -> [String: Double]? {
    let here = String(#filePath)
    let root = String(here[..<here.firstRange(of: "/Benchmarks/")!.lowerBound])
    let binary = "/tmp/strata-bench-\(getpid())-\(file.split(separator: ".")[0])"
    defer { unlink(binary) }
    guard system("cc -O2 -o \(binary) \(root)/Benchmarks/Reference/\(file) \(flags) -lm 2>&1") == 0,
          let pipe = popen("\(binary) \(arguments)", "r") else { return nil }
    var values: [String: Double] = [:]
    var buffer = [CChar](repeating: 0, count: 256)
    while fgets(&buffer, 256, pipe) != nil {
        let parts = String(cString: buffer).split(whereSeparator: \.isWhitespace)
        if parts.count == 2, let v = Double(parts[1]) { values[String(parts[0])] = v }
    }
    return pclose(pipe) == 0 ? values : nil
}
