// Strata: the app toolkit — views, animation blocks, layout, windows — on top of
// LayerKit (re-exported: a `View`'s layer is a LayerKit `Layer`).
@_exported import LayerKit
