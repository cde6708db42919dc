/// The media-timing model (`CAMediaTiming`, rule E9): from the layer's local time
/// to a fraction of one simple cycle.
///
/// The numbers of one animation, as a value: what evaluating a frame reads (a
/// typed track keeps a copy, so a frame reads no animation object).
struct MediaTimingValues {
    /// The only number that changes: a commit stamps an unset begin time.
    var beginTime: Double
    let duration: Double
    let speed: Double
    let timeOffset: Double
    let autoreverses: Bool
    let fillMode: FillMode
    /// One repeat: forwards, and back again when autoreversing.
    let cycleDuration: Double
    /// How long the animation is active, in its own time (from the repeat
    /// count or duration, which a frame needs in no other form).
    let activeDuration: Double

    // The durations are worked out once: every frame reads them for every
    // track. The value stays as small as it was without them (six numbers and
    // two flags): a bigger one made each implicit animation's entry slower to
    // fill (S4 156 → 230–290 ns).
    init(beginTime: Double, duration: Double, speed: Double, timeOffset: Double, repeatCount: Double, repeatDuration: Double,
         autoreverses: Bool, fillMode: FillMode) {
        (self.beginTime, self.duration, self.speed, self.timeOffset) = (beginTime, duration, speed, timeOffset)
        (self.autoreverses, self.fillMode) = (autoreverses, fillMode)
        let simple = duration > 0 && duration.isFinite ? duration : 0.25
        cycleDuration = simple * (autoreverses ? 2 : 1)
        if repeatDuration > 0 && repeatDuration.isFinite {
            activeDuration = repeatDuration
        } else if repeatDuration == .infinity {
            activeDuration = .infinity
        } else {
            activeDuration = repeatCount > 0 ? repeatCount * cycleDuration : cycleDuration
        }
    }

    /// One simple cycle, forwards only.
    var simpleDuration: Double { duration > 0 && duration.isFinite ? duration : 0.25 }

    /// The active time — seconds since the start, scaled by `speed` — at a layer time.
    func activeTime(atLayerTime t: Double, begin: Double) -> Double {
        (t - begin) * speed
    }

    /// Where in a cycle the animation is at active time `tAct`, honouring the fill
    /// mode; nil when it has no effect then.
    func timing(atActiveTime tAct: Double) -> (fraction: Double, iteration: Int)? {
        guard let (fraction, iteration) = cyclePosition(atActiveTime: tAct) else { return nil }
        // A cycle number past an Int's range (a time before the start over a cycle of
        // a denormal duration is −∞ cycles) is held at the range's middle; NaN too.
        let bound = Double(Int.max / 2)
        return (fraction, iteration.isNaN ? Int.max / 2 : Int(max(-bound, min(bound, iteration))))
    }

    /// The fraction alone (what a typed track reads).
    @inline(__always)
    func fraction(atActiveTime tAct: Double) -> Double? {
        cyclePosition(atActiveTime: tAct)?.fraction
    }

    /// The fraction of a cycle and the cycle's number (a whole number, as a `Double`).
    private func cyclePosition(atActiveTime tAct: Double) -> (fraction: Double, iteration: Double)? {
        let active = activeDuration
        if tAct < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            return position(at: timeOffset, active: active, atEnd: false)
        }
        if tAct >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            return position(at: active + timeOffset, active: active, atEnd: true)
        }
        return position(at: tAct + timeOffset, active: active, atEnd: false)
    }

    private func position(at t: Double, active: Double, atEnd: Bool) -> (fraction: Double, iteration: Double) {
        let d = simpleDuration, cycle = cycleDuration
        var t = t
        if active.isFinite && active > 0 && timeOffset != 0 {
            t = t.truncatingRemainder(dividingBy: active)
            if t < 0 { t += active }
            if atEnd && t == 0 { t = active }
        }
        var iteration = (t / cycle).rounded(.down)
        var within = t - iteration * cycle
        if atEnd && within <= 0 && iteration > 0 {
            // Exactly at the end of a cycle: the end state of that cycle.
            iteration -= 1
            within = cycle
        }
        if autoreverses && within > d {
            within = cycle - within
        }
        return (min(1, max(0, within / d)), iteration)
    }
}

extension Animation {
    /// The animation's timing numbers now.
    var timingValues: MediaTimingValues {
        MediaTimingValues(beginTime: beginTime, duration: duration, speed: speed, timeOffset: timeOffset, repeatCount: repeatCount,
                          repeatDuration: repeatDuration, autoreverses: autoreverses, fillMode: fillMode)
    }

    /// Sets the timing of an implicit animation's track on the object made from
    /// it: an implicit animation never repeats, so the repeat count and
    /// duration stay zero.
    func setImplicitTiming(_ t: MediaTimingValues) {
        (beginTime, duration, speed, timeOffset) = (t.beginTime, t.duration, t.speed, t.timeOffset)
        (autoreverses, fillMode) = (t.autoreverses, t.fillMode)
    }

    var simpleDuration: Double { timingValues.simpleDuration }
    var cycleDuration: Double { timingValues.cycleDuration }
    var activeDuration: Double { timingValues.activeDuration }

    func activeTime(atLayerTime t: Double, begin: Double) -> Double {
        timingValues.activeTime(atLayerTime: t, begin: begin)
    }

    func timing(atActiveTime tAct: Double) -> (fraction: Double, iteration: Int)? {
        timingValues.timing(atActiveTime: tAct)
    }
}
