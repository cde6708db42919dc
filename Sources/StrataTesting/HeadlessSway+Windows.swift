import Foundation

extension HeadlessSway {
    /// Every window in sway's layout tree (`get_tree`), tiled or floating, with
    /// its content rectangle (the tree's `rect` moved by its `window_rect`:
    /// without sway's border and title bar).
    public func windows() throws(CompositorError) -> [ScreenWindow]? {
        let text = try tree()
        guard let data = text.data(using: .utf8), let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .notReady("sway's tree is not JSON: \(text.prefix(200))")
        }
        var found: [ScreenWindow] = []
        func walk(_ node: [String: Any]) {
            if node["pid"] != nil, let rect = node["rect"] as? [String: Any], let inner = node["window_rect"] as? [String: Any] {
                func int(_ d: [String: Any], _ k: String) -> Int { (d[k] as? NSNumber)?.intValue ?? 0 }
                found.append(ScreenWindow(title: node["name"] as? String, appID: node["app_id"] as? String,
                                          x: int(rect, "x") + int(inner, "x"), y: int(rect, "y") + int(inner, "y"),
                                          width: int(inner, "width"), height: int(inner, "height"),
                                          pid: (node["pid"] as? NSNumber)?.int32Value, id: (node["id"] as? NSNumber).map { "\($0.intValue)" },
                                          source: "sway's IPC"))
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [[String: Any]] ?? [] { walk(child) }
            }
        }
        walk(root)
        return found
    }

    /// Closes the window as its close button would (`[con_id=N] kill`).
    public func closeWindow(_ window: ScreenWindow) throws(CompositorError) -> Bool {
        guard let id = window.id else { return false }
        return try command("[con_id=\(id)] kill").status == 0
    }
}
