@testable import LayerKit
import Testing
import LayerKitTesting

/// A layer keeps its sublayers' subtree versions side by side, so a renderer finds
/// which of thousands of siblings changed without reading each one.
@MainActor
@Suite("Sublayer versions", .serialized, .isolatedLayerContext)
struct SublayerVersionTests {
    @Test("the versions stay in step through inserts, removals, replacements, moves and changes below; changedSublayers names exactly what changed")
    func inStep() {
        let f = Fixture()
        let root = f.presentedLayer()
        let layers = (0..<8).map { i -> Layer in
            let l = Layer()
            l.name = "\(i)"
            return l
        }
        Transaction.withoutActions { for l in layers { root.addSublayer(l) } }
        #expect(root.checkInvariants().isEmpty)
        let look = { (root.sublayers.map(ObjectIdentifier.init), root.sublayers.map(\.subtreeVersion)) }
        var (ids, versions) = look()
        #expect(root.changedSublayers(ids: ids, versions: versions).isEmpty)

        Transaction.withoutActions {
            layers[3].opacity = 0.5
            let child = Layer()
            layers[5].addSublayer(child)
            child.position = Point(x: 4, y: 4)          // a change two levels down
        }
        #expect(root.changedSublayers(ids: ids, versions: versions) == [3, 5])
        #expect(root.checkInvariants().isEmpty)

        (ids, versions) = look()
        Transaction.withoutActions {
            layers[0].removeFromSuperlayer()             // everything after it moves down one
            layers[6].backgroundColor = .red
        }
        #expect(root.checkInvariants().isEmpty)
        #expect(root.changedSublayers(ids: ids, versions: versions) == Array(0..<7), "a different count: everything is looked at")
        (ids, versions) = look()
        Transaction.withoutActions { layers[6].backgroundColor = .blue }   // its index hint is stale: found and fixed
        #expect(root.changedSublayers(ids: ids, versions: versions) == [5])
        #expect(layers[6].indexHint == 5)

        (ids, versions) = look()
        let new = Layer()
        Transaction.withoutActions { root.replaceSublayer(layers[2], with: new) }
        #expect(root.checkInvariants().isEmpty)
        #expect(root.changedSublayers(ids: ids, versions: versions) == [1])
        (ids, versions) = look()
        Transaction.withoutActions { root.insertSublayer(layers[7], at: 0) }   // a move within the same superlayer
        #expect(root.checkInvariants().isEmpty)
        #expect(root.sublayerVersions == root.sublayers.map(\.subtreeVersion))
        Transaction.withoutActions { layers[7].opacity = 0.1 }
        #expect(root.sublayerVersions[0] == layers[7].subtreeVersion)
    }
}
