/// What every interactive transition does with the finger (the navigation
/// controller's pop from the edge, a sheet dragged down): a paused property
/// animator scrubbed by the distance, then finished or sent back on release.
extension ViewPropertyAnimator {
    /// Points per second past which a released transition finishes (forward) or
    /// goes back (backward), whatever the distance.
    static let flingSpeed = 500.0

    /// The finger is `distance` points into a transition of `travel` points.
    func scrub(_ distance: Double, of travel: Double) {
        fractionComplete = min(1, max(0, distance / max(1, travel)))
    }

    /// The finger let go (`ended`) or the gesture was cancelled: the transition
    /// finishes when past half way or flung forward, and goes back otherwise —
    /// flung back, or cancelled (rule C1 reverses the appearance calls then).
    func release(speed: Double, ended: Bool) {
        let finishes = ended && speed > -Self.flingSpeed && (fractionComplete > 0.5 || speed > Self.flingSpeed)
        isReversed = !finishes
        continueAnimation(withTimingParameters: nil, durationFactor: 1)
    }
}
