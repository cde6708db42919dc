import Glibc

/// A transform split into perspective, translation, rotation, skew and scale.
///
/// Transforms animate by interpolating these parts (rotation by quaternion
/// slerp), not element by element, so a half-way rotation is a rotation and not a
/// shrunken shear. The key paths `transform.scale`, `transform.rotation.z`,
/// `transform.translation.x`… read and write these parts.
public struct DecomposedTransform: Hashable, Sendable {
    public var translation: (x: Double, y: Double, z: Double)
    public var scale: (x: Double, y: Double, z: Double)
    /// Shear factors xy, xz, yz.
    public var skew: (xy: Double, xz: Double, yz: Double)
    public var perspective: (x: Double, y: Double, z: Double, w: Double)
    /// Unit quaternion (x, y, z, w).
    public var quaternion: (x: Double, y: Double, z: Double, w: Double)

    public static func == (l: Self, r: Self) -> Bool { l.recomposed == r.recomposed }
    public func hash(into h: inout Hasher) { h.combine(recomposed) }

    /// Euler angles (rotation about x, then y, then z) of the rotation part.
    public var rotation: (x: Double, y: Double, z: Double) {
        get {
            let q = quaternion
            let x = atan2(2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x * q.x + q.y * q.y))
            let y = asin(max(-1, min(1, 2 * (q.w * q.y - q.z * q.x))))
            let z = atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
            return (x, y, z)
        }
        set {
            let (cx, sx) = (cos(newValue.x / 2), sin(newValue.x / 2))
            let (cy, sy) = (cos(newValue.y / 2), sin(newValue.y / 2))
            let (cz, sz) = (cos(newValue.z / 2), sin(newValue.z / 2))
            quaternion = (x: sx * cy * cz - cx * sy * sz,
                          y: cx * sy * cz + sx * cy * sz,
                          z: cx * cy * sz - sx * sy * cz,
                          w: cx * cy * cz + sx * sy * sz)
        }
    }

    /// The transform these parts describe.
    public var recomposed: Transform3D {
        var m = Transform3D.identity
        (m.m14, m.m24, m.m34, m.m44) = perspective
        m = Transform3D(translationX: translation.x, y: translation.y, z: translation.z).concatenating(m)
        m = rotationMatrix.concatenating(m)
        if skew.yz != 0 { var s = Transform3D.identity; s.m32 = skew.yz; m = s.concatenating(m) }
        if skew.xz != 0 { var s = Transform3D.identity; s.m31 = skew.xz; m = s.concatenating(m) }
        if skew.xy != 0 { var s = Transform3D.identity; s.m21 = skew.xy; m = s.concatenating(m) }
        return Transform3D(scaleX: scale.x, y: scale.y, z: scale.z).concatenating(m)
    }

    private var rotationMatrix: Transform3D {
        let (x, y, z, w) = quaternion
        var r = Transform3D.identity
        // Row-vector form of the rotation the quaternion describes.
        r.m11 = 1 - 2 * (y * y + z * z); r.m12 = 2 * (x * y + z * w);     r.m13 = 2 * (x * z - y * w)
        r.m21 = 2 * (x * y - z * w);     r.m22 = 1 - 2 * (x * x + z * z); r.m23 = 2 * (y * z + x * w)
        r.m31 = 2 * (x * z + y * w);     r.m32 = 2 * (y * z - x * w);     r.m33 = 1 - 2 * (x * x + y * y)
        return r
    }

    /// Interpolates every part linearly, the rotation along the shorter great arc.
    public func interpolated(to o: DecomposedTransform, fraction t: Double) -> DecomposedTransform {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * t }
        var r = self
        r.translation = (mix(translation.x, o.translation.x), mix(translation.y, o.translation.y), mix(translation.z, o.translation.z))
        r.scale = (mix(scale.x, o.scale.x), mix(scale.y, o.scale.y), mix(scale.z, o.scale.z))
        r.skew = (mix(skew.xy, o.skew.xy), mix(skew.xz, o.skew.xz), mix(skew.yz, o.skew.yz))
        r.perspective = (mix(perspective.x, o.perspective.x), mix(perspective.y, o.perspective.y),
                         mix(perspective.z, o.perspective.z), mix(perspective.w, o.perspective.w))
        r.quaternion = Self.slerp(quaternion, o.quaternion, t)
        return r
    }

    static func slerp(_ a: (x: Double, y: Double, z: Double, w: Double),
                      _ b: (x: Double, y: Double, z: Double, w: Double),
                      _ t: Double) -> (x: Double, y: Double, z: Double, w: Double) {
        var b = b
        var dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        if dot < 0 { b = (-b.x, -b.y, -b.z, -b.w); dot = -dot }
        let wa: Double, wb: Double
        if dot > 0.9995 {
            (wa, wb) = (1 - t, t)
        } else {
            let theta = acos(min(1, dot)), s = sin(theta)
            (wa, wb) = (sin((1 - t) * theta) / s, sin(t * theta) / s)
        }
        var q = (x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z, w: wa * a.w + wb * b.w)
        let n = (q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w).squareRoot()
        if n > 0 { q = (q.x / n, q.y / n, q.z / n, q.w / n) }
        return q
    }
}

extension Transform3D {
    /// Splits the transform into its parts, or nil for a matrix that has none
    /// (m44 = 0, or a singular linear part such as a zero scale).
    public var decomposed: DecomposedTransform? {
        guard m44 != 0, m44.isFinite else { return nil }
        var r = rows.map { $0.map { $0 / m44 } }
        var persp = Transform3D(rows: r)
        (persp.m14, persp.m24, persp.m34) = (0, 0, 0)
        persp.m44 = 1
        guard abs(persp.determinant) > 1e-12 else { return nil }

        var perspective = (x: 0.0, y: 0.0, z: 0.0, w: 1.0)
        if r[0][3] != 0 || r[1][3] != 0 || r[2][3] != 0 {
            // rhs · (persp⁻¹)ᵀ, written out: column j of the inverse dotted with rhs.
            let rhs = [r[0][3], r[1][3], r[2][3], r[3][3]]
            let inv = persp.inverted().rows
            var p = [0.0, 0.0, 0.0, 0.0]
            for j in 0..<4 { p[j] = (0..<4).reduce(0) { $0 + rhs[$1] * inv[j][$1] } }
            perspective = (p[0], p[1], p[2], p[3])
        }
        let translation = (x: r[3][0], y: r[3][1], z: r[3][2])

        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func length(_ a: [Double]) -> Double { dot(a, a).squareRoot() }
        func combine(_ a: [Double], _ b: [Double], _ sa: Double, _ sb: Double) -> [Double] {
            [sa * a[0] + sb * b[0], sa * a[1] + sb * b[1], sa * a[2] + sb * b[2]]
        }
        var row = [Array(r[0][0..<3]), Array(r[1][0..<3]), Array(r[2][0..<3])]
        var sx = length(row[0])
        guard sx > 1e-12 else { return nil }
        row[0] = row[0].map { $0 / sx }
        var skewXY = dot(row[0], row[1])
        row[1] = combine(row[1], row[0], 1, -skewXY)
        var sy = length(row[1])
        guard sy > 1e-12 else { return nil }
        row[1] = row[1].map { $0 / sy }
        skewXY /= sy
        var skewXZ = dot(row[0], row[2])
        row[2] = combine(row[2], row[0], 1, -skewXZ)
        var skewYZ = dot(row[1], row[2])
        row[2] = combine(row[2], row[1], 1, -skewYZ)
        var sz = length(row[2])
        guard sz > 1e-12 else { return nil }
        row[2] = row[2].map { $0 / sz }
        skewXZ /= sz
        skewYZ /= sz

        let cross = [row[1][1] * row[2][2] - row[1][2] * row[2][1],
                     row[1][2] * row[2][0] - row[1][0] * row[2][2],
                     row[1][0] * row[2][1] - row[1][1] * row[2][0]]
        if dot(row[0], cross) < 0 {
            sx = -sx; sy = -sy; sz = -sz
            row = row.map { $0.map { -$0 } }
        }
        r = []  // no longer needed

        // Quaternion of the rotation whose rows are `row` (Shepperd's method).
        let (a, b, c) = (row[0], row[1], row[2])
        let trace = a[0] + b[1] + c[2]
        var q: (x: Double, y: Double, z: Double, w: Double)
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = ((b[2] - c[1]) / s, (c[0] - a[2]) / s, (a[1] - b[0]) / s, s / 4)
        } else if a[0] > b[1] && a[0] > c[2] {
            let s = (1 + a[0] - b[1] - c[2]).squareRoot() * 2
            q = (s / 4, (a[1] + b[0]) / s, (c[0] + a[2]) / s, (b[2] - c[1]) / s)
        } else if b[1] > c[2] {
            let s = (1 + b[1] - a[0] - c[2]).squareRoot() * 2
            q = ((a[1] + b[0]) / s, s / 4, (b[2] + c[1]) / s, (c[0] - a[2]) / s)
        } else {
            let s = (1 + c[2] - a[0] - b[1]).squareRoot() * 2
            q = ((c[0] + a[2]) / s, (b[2] + c[1]) / s, s / 4, (a[1] - b[0]) / s)
        }
        return DecomposedTransform(translation: translation, scale: (sx, sy, sz),
                                   skew: (skewXY, skewXZ, skewYZ), perspective: perspective, quaternion: q)
    }
}
