import Glibc

/// A basic animation driven by a damped spring (`CASpringAnimation`): the value
/// moves from `fromValue` to `toValue` as a mass on a spring would, overshooting
/// when under-damped. The timing function is not used; `duration` is how long the
/// animation lasts (set it to ``settlingDuration`` to let the spring settle).
///
/// Defaults (rule L1): mass 1, stiffness 100, damping 10, initial velocity 0.
/// Non-positive or non-finite mass or stiffness, or negative damping, fall back to
/// the defaults when evaluated, so the value never becomes NaN.
@MainActor
public final class SpringAnimation: BasicAnimation {
    public var mass = 1.0
    public var stiffness = 100.0
    public var damping = 10.0
    /// Initial speed towards the target, in units of the whole distance per second.
    public var initialVelocity = 0.0

    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    /// A spring of the given damping ratio (1: critically damped, < 1 bounces) that
    /// settles in about `duration` seconds — the form `View.animate(…dampingRatio:)` uses.
    public convenience init(keyPath: String?, dampingRatio: Double, duration: Double, initialVelocity: Double = 0) {
        self.init(keyPath: keyPath)
        let ratio = dampingRatio.isFinite ? min(max(dampingRatio, 0.01), 10) : 1
        let d = duration.isFinite && duration > 0 ? duration : 0.5
        // Settling time scales as 1/ω₀ for a given ratio: measure it at ω₀ = 1, then scale.
        stiffness = 1
        damping = 2 * ratio
        let omega = settlingDuration / d
        stiffness = omega * omega
        damping = 2 * ratio * omega
        self.initialVelocity = initialVelocity
        self.duration = d
    }

    public required init(copying other: Animation) {
        if let o = other as? SpringAnimation {
            mass = o.mass
            stiffness = o.stiffness
            damping = o.damping
            initialVelocity = o.initialVelocity
        }
        super.init(copying: other)
    }

    /// The parameters as used: non-positive or non-finite ones take the defaults, and
    /// finite ones are held within 1e-6…1e6 (damping 0…1e6, velocity ±1e6) — past
    /// those the closed form's arithmetic overflows and no spring moves visibly differently.
    private var parameters: (m: Double, k: Double, c: Double, v0: Double) {
        func held(_ v: Double, _ low: Double, _ high: Double) -> Double { min(high, max(low, v)) }
        let m = mass > 0 && mass.isFinite ? held(mass, 1e-6, 1e6) : 1
        let k = stiffness > 0 && stiffness.isFinite ? held(stiffness, 1e-6, 1e6) : 100
        let c = damping >= 0 && damping.isFinite ? held(damping, 0, 1e6) : 10
        return (m, k, c, initialVelocity.isFinite ? held(initialVelocity, -1e6, 1e6) : 0)
    }

    /// The remaining displacement (1 at t = 0, 0 at rest) after `t` seconds: the
    /// closed-form solution of m·x″ + c·x′ + k·x = 0 with x(0) = 1, x′(0) = −v₀.
    /// Never NaN or ∞: where the closed form overflows the spring is at rest (0).
    public func displacement(at t: Double) -> Double {
        let x = closedFormDisplacement(at: t)
        return x.isFinite ? x : 0
    }

    private func closedFormDisplacement(at t: Double) -> Double {
        let (m, k, c, v0) = parameters
        let w0 = (k / m).squareRoot()
        let zeta = c / (2 * (k * m).squareRoot())
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        } else if zeta == 1 {
            return exp(-w0 * t) * (1 + (w0 - v0) * t)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - root), r2 = -w0 * (zeta + root)
            let c2 = (-v0 - r1) / (r2 - r1)
            return (1 - c2) * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// How long the spring takes to come to rest (`settlingDuration`, rule E13):
    /// the time after which the motion stays within 1/1280 of the distance — half
    /// a point of a 640-point move — judged by the envelope of its swings, as Core
    /// Animation's estimate is: a spring from 0 to 640 with mass 1 and stiffness
    /// 100 settles in about 2.85 s with damping 5 and in just over 1 s with 15.
    public var settlingDuration: Double {
        let (m, k, c, v0) = parameters
        let w0 = (k / m).squareRoot()
        let zeta = c / (2 * (k * m).squareRoot())
        let epsilon = 1.0 / 1280
        if zeta > 0 && zeta < 1 {
            // Under-damped: |x(t)| ≤ A·e^(−ζω₀t), A the amplitude of the swing.
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let amplitude = (1 + ((zeta * w0 - v0) / wd) * ((zeta * w0 - v0) / wd)).squareRoot()
            return min(120, max(0, log(amplitude / epsilon) / (zeta * w0)))
        }
        // Undamped it never rests (the bound), critically or over-damped it creeps in:
        // the last time the displacement is outside the band.
        let step = 1.0 / 240
        var last = 0.0
        var t = 0.0
        while t < 120 {
            if abs(displacement(at: t)) > epsilon { last = t } else if t - last > 2 { break }
            t += step
        }
        return last + step
    }

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        guard let keyPath, let (from, to) = endpoints(model: model, entry: entry) else { return }
        let progress = 1 - displacement(at: fraction * simpleDuration)
        let target = entry.extras.target ?? ParsedKeyPath(keyPath, for: type(of: presentation))
        entry.extras.target = target
        // Overshoot extrapolates past `to`, which interpolation allows.
        var value = AnyValue.interpolate(from, to, progress) ?? (progress < 0.5 ? from : to)
        if isAdditive { value = combine(value, base: target.read(presentation)) }
        target.write(value, to: presentation)
    }
}
