import Glibc
import StrataTesting
import WaylandClient

/// Issue 29: what the protocol proxy adds. On a headless weston, interleaved:
/// `wl_display.sync` round trips (a request and two events each) and bursts of
/// 2,000 `wl_surface.damage` requests followed by a round trip, each straight
/// to weston and through a `ProtocolProxy` that decodes and keeps every message.
@MainActor
func sceneProxyOverhead() throws -> [Figure] {
    let weston = try HeadlessWeston()
    let proxy = try ProtocolProxy(upstream: weston.socketPath, socketPath: weston.runtimeDirectory + "/proxy-bench")
    defer {
        proxy.stop()
        weston.stop()
    }
    let direct = try Display(socket: weston.socketPath)
    let proxied = try Display(socket: proxy.socketPath)
    let surfaces = [direct.compositor.createSurface(), proxied.compositor.createSurface()]
    var roundTrips: [[Double]] = [[], []], bursts: [[Double]] = [[], []]
    for _ in 0..<7 {
        for (i, display) in [direct, proxied].enumerated() {
            for _ in 0..<200 {
                let t = now()
                try display.connection.roundtrip()
                roundTrips[i].append(now() - t)
            }
            let t = now()
            for k in 0..<2000 { surfaces[i].damage(x: Int32(k % 64), y: 0, width: 1, height: 1) }
            try display.connection.roundtrip()
            bursts[i].append((now() - t) / 2000)
        }
    }
    let trip = roundTrips.map(median), burst = bursts.map(median)
    return [
        Figure(scene: "proxy", metric: "round trip, direct p50", value: trip[0] * 1e6, unit: "µs", repetitions: roundTrips[0].count),
        Figure(scene: "proxy", metric: "round trip, through the proxy p50", value: trip[1] * 1e6, unit: "µs", repetitions: roundTrips[1].count),
        Figure(scene: "proxy", metric: "added per message (round trip / 3)", value: (trip[1] - trip[0]) / 3 * 1e6, unit: "µs", repetitions: roundTrips[1].count),
        Figure(scene: "proxy", metric: "burst request, direct", value: burst[0] * 1e6, unit: "µs", repetitions: bursts[0].count),
        Figure(scene: "proxy", metric: "burst request, through the proxy", value: burst[1] * 1e6, unit: "µs", repetitions: bursts[1].count),
        Figure(scene: "proxy", metric: "burst ratio proxy/direct", value: burst[1] / burst[0], unit: "×", repetitions: bursts[1].count),
    ]
}
