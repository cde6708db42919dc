import LayerKitTesting
import Testing
import StrataTesting

/// Every test that runs a compositor, one at a time: they block the main actor
/// while they wait for the compositor, which would starve the event-loop tests
/// (and weston instances would compete for the two cores).
@MainActor
@Suite("Integration with headless weston", .serialized, .mainLayerContext)
struct Integration {}
