/// Converting points and rectangles between views, and hit testing (rules H1, H2).
extension View {
    /// `point`, in this view's coordinates, in `view`'s coordinates (nil: the
    /// window's), through every transform on the way (`convert(_:to:)`).
    public func convert(_ point: Point, to view: View?) -> Point {
        let inWindow = layer.convert(point, to: nil)
        guard let view else { return inWindow }
        return view.layer.convert(inWindow, from: nil)
    }

    /// `point`, in `view`'s coordinates (nil: the window's), in this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        let inWindow = view.map { $0.layer.convert(point, to: nil) } ?? point
        return layer.convert(inWindow, from: nil)
    }

    /// The bounding box of `rect`'s corners taken into `view`'s coordinates.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        Rect.boundingBox(of: rect.corners.map { convert($0, to: view) })
    }

    /// The bounding box of `rect`'s corners taken from `view`'s coordinates.
    public func convert(_ rect: Rect, from view: View?) -> Rect {
        Rect.boundingBox(of: rect.corners.map { convert($0, from: view) })
    }
}

extension View {
    /// Whether the view can be hit at all (rules H1, H2, V8): shown, opaque
    /// enough, taking input, and not in a block animation made without
    /// `.allowUserInteraction`.
    var acceptsHits: Bool {
        !isHidden && alpha > 0.01 && isUserInteractionEnabled && animationsBlockingInput == 0
    }
}
