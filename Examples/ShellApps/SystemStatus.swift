import Glibc

/// What a status bar shows about the machine, read from /proc and /sys as
/// waybar's modules do: processor use between two readings, memory in use, and
/// the battery where there is one. Each reader takes the file's text, so odd or
/// truncated contents give nil (the bar leaves that part out) instead of a crash.
public struct SystemStatus: Equatable, Sendable {
    /// Processor use since the previous reading, 0…1 (nil on the first).
    public var cpu: Double?
    /// Memory in use (total − available) and total, in bytes.
    public var memory: (used: UInt64, total: UInt64)?
    /// Battery charge 0…100 and whether it is charging.
    public var battery: (percent: Int, charging: Bool)?

    public static func == (a: SystemStatus, b: SystemStatus) -> Bool {
        a.cpu == b.cpu && a.memory?.used == b.memory?.used && a.memory?.total == b.memory?.total
            && a.battery?.percent == b.battery?.percent && a.battery?.charging == b.battery?.charging
    }

    /// The processor's busy and total jiffies from /proc/stat's first line
    /// ("cpu  user nice system idle iowait irq softirq steal …").
    public static func cpuTimes(procStat text: String) -> (busy: UInt64, total: UInt64)? {
        guard let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let fields = line.split(separator: " ").dropFirst().prefix(8).map { UInt64($0) }
        guard fields.count >= 4, !fields.contains(nil) else { return nil }
        let values = fields.map { $0! }
        let total = values.reduce(0, &+)   // wrapping: garbage in, a figure out, never a trap
        let idle = values[3] &+ (values.count > 4 ? values[4] : 0)   // idle + iowait
        return (total >= idle ? total - idle : 0, total)
    }

    /// Use between two readings of ``cpuTimes(procStat:)``: nil when time did not move forward.
    public static func cpuUse(from a: (busy: UInt64, total: UInt64), to b: (busy: UInt64, total: UInt64)) -> Double? {
        guard b.total > a.total, b.busy >= a.busy else { return nil }
        return min(1, Double(b.busy - a.busy) / Double(b.total - a.total))
    }

    /// Used and total memory from /proc/meminfo (MemTotal and MemAvailable, in KiB).
    public static func memory(procMeminfo text: String) -> (used: UInt64, total: UInt64)? {
        var total: UInt64?, available: UInt64?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kib = UInt64(parts[1]), kib < UInt64.max / 1024 else { continue }
            if parts[0] == "MemTotal:" { total = kib * 1024 }
            if parts[0] == "MemAvailable:" { available = kib * 1024 }
        }
        guard let total, let available, available <= total, total > 0 else { return nil }
        return (total - available, total)
    }

    /// A battery's charge from its `capacity` and `status` files.
    public static func battery(capacity: String, status: String) -> (percent: Int, charging: Bool)? {
        guard let percent = Int(capacity.split(separator: "\n").first ?? ""), (0...100).contains(percent) else { return nil }
        return (percent, status.hasPrefix("Charging") || status.hasPrefix("Full"))
    }

    /// The first battery under /sys/class/power_supply (a supply whose `type` is Battery).
    public static func readBattery(root: String = "/sys/class/power_supply") -> (percent: Int, charging: Bool)? {
        guard let dir = opendir(root) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix("."), readText("\(root)/\(name)/type")?.hasPrefix("Battery") == true else { continue }
            if let b = battery(capacity: readText("\(root)/\(name)/capacity") ?? "", status: readText("\(root)/\(name)/status") ?? "") {
                return b
            }
        }
        return nil
    }

    /// A small text file's contents (at most 64 KiB), nil when it cannot be read.
    public static func readText(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return String(decoding: readBytes(fd, limit: 65_536), as: UTF8.self)
    }

    /// What `fd` gives until its end (or an error, or a timeout it has), at most `limit` bytes.
    static func readBytes(_ fd: Int32, limit: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let n = read(fd, &buffer, min(buffer.count, limit - bytes.count))
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }
}

/// Reads ``SystemStatus`` again and again, keeping the last processor reading.
public struct SystemStatusReader {
    private var lastCPU: (busy: UInt64, total: UInt64)?
    private var lastUse: Double?
    public init() {}

    /// Reads now. Processor use needs a span of at least half a second of one
    /// processor's time (50 jiffies): a reading closer to the last one keeps the
    /// last figure, which a figure from a few jiffies would not be worth.
    public mutating func read() -> SystemStatus {
        var status = SystemStatus()
        if let times = SystemStatus.readText("/proc/stat").flatMap(SystemStatus.cpuTimes) {
            if let last = lastCPU, times.total >= last.total, times.total - last.total < 50 {
                status.cpu = lastUse
            } else {
                if let last = lastCPU { lastUse = SystemStatus.cpuUse(from: last, to: times) }
                status.cpu = lastUse
                lastCPU = times
            }
        }
        status.memory = SystemStatus.readText("/proc/meminfo").flatMap(SystemStatus.memory)
        status.battery = SystemStatus.readBattery()
        return status
    }
}

extension SystemStatus {
    /// "CPU 12%  Mem 3.1/15.5 GB  Bat 80%⚡" — the parts that are known.
    public var summary: String {
        var parts: [String] = []
        if let cpu { parts.append("CPU \(Int((cpu * 100).rounded()))%") }
        if let memory {
            func gb(_ b: UInt64) -> String {
                let tenths = Int((Double(b) / 1_073_741_824 * 10).rounded())
                return "\(tenths / 10).\(tenths % 10)"
            }
            parts.append("Mem \(gb(memory.used))/\(gb(memory.total)) GB")
        }
        if let battery { parts.append("Bat \(battery.percent)%\(battery.charging ? "+" : "")") }
        return parts.joined(separator: "   ")
    }
}
