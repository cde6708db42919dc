import Glibc

/// A 4×4 homogeneous transform, matching `CATransform3D`.
///
/// Core Animation's convention is kept: points are row vectors multiplied on the
/// left, `(x, y, z, 1) · M`, so the translation lives in `m41…m43` and perspective
/// is `m34 = −1/d`. `a.concatenating(b)` applies `a` first, then `b`
/// (`CATransform3DConcat(a, b)`).
public struct Transform3D: Hashable, Sendable, CustomStringConvertible {
    public var m11, m12, m13, m14: Double
    public var m21, m22, m23, m24: Double
    public var m31, m32, m33, m34: Double
    public var m41, m42, m43, m44: Double

    public init(m11: Double, m12: Double, m13: Double, m14: Double,
                m21: Double, m22: Double, m23: Double, m24: Double,
                m31: Double, m32: Double, m33: Double, m34: Double,
                m41: Double, m42: Double, m43: Double, m44: Double) {
        (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
        (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
        (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
        (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
    }

    /// Builds a transform from 16 values in row order.
    public init(rows r: [[Double]]) {
        precondition(r.count == 4 && r.allSatisfy { $0.count == 4 }, "Transform3D(rows:) needs 4 rows of 4")
        self.init(m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3],
                  m21: r[1][0], m22: r[1][1], m23: r[1][2], m24: r[1][3],
                  m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3],
                  m41: r[3][0], m42: r[3][1], m43: r[3][2], m44: r[3][3])
    }

    public static let identity = Transform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                             m21: 0, m22: 1, m23: 0, m24: 0,
                                             m31: 0, m32: 0, m33: 1, m34: 0,
                                             m41: 0, m42: 0, m43: 0, m44: 1)

    /// `CATransform3DMakeTranslation`.
    public init(translationX tx: Double, y ty: Double, z tz: Double) {
        self = .identity
        (m41, m42, m43) = (tx, ty, tz)
    }

    /// `CATransform3DMakeScale`.
    public init(scaleX sx: Double, y sy: Double, z sz: Double) {
        self = .identity
        (m11, m22, m33) = (sx, sy, sz)
    }

    /// `CATransform3DMakeRotation`: `angle` radians about the axis (x, y, z). About
    /// the z axis a positive angle turns clockwise on a y-down screen, as on iOS.
    /// A zero axis gives the identity, as Core Animation does.
    public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
        let len = (x * x + y * y + z * z).squareRoot()
        guard len > 0, len.isFinite else { self = .identity; return }
        let (ux, uy, uz) = (x / len, y / len, z / len)
        let c = cos(angle), s = sin(angle), t = 1 - c
        self = .identity
        m11 = t * ux * ux + c;      m12 = t * ux * uy + s * uz; m13 = t * ux * uz - s * uy
        m21 = t * ux * uy - s * uz; m22 = t * uy * uy + c;      m23 = t * uy * uz + s * ux
        m31 = t * ux * uz + s * uy; m32 = t * uy * uz - s * ux; m33 = t * uz * uz + c
    }

    /// The embedding of a 2D affine transform (`CATransform3DMakeAffineTransform`).
    public init(_ t: AffineTransform) {
        self = .identity
        (m11, m12, m21, m22, m41, m42) = (t.a, t.b, t.c, t.d, t.tx, t.ty)
    }

    public var isIdentity: Bool { self == .identity }

    /// True when the transform keeps z = 0 points in the plane and has no perspective,
    /// so it equals an `AffineTransform` (`CATransform3DIsAffine`).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0
            && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
    }

    /// The 2D part (`CATransform3DGetAffineTransform`).
    public var affineTransform: AffineTransform {
        AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }

    var rows: [[Double]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    /// `self` applied first, then `t` (`CATransform3DConcat(self, t)`). Written out
    /// element by element: it runs for every layer of every frame.
    public func concatenating(_ t: Transform3D) -> Transform3D {
        func row(_ a1: Double, _ a2: Double, _ a3: Double, _ a4: Double) -> (Double, Double, Double, Double) {
            (a1 * t.m11 + a2 * t.m21 + a3 * t.m31 + a4 * t.m41,
             a1 * t.m12 + a2 * t.m22 + a3 * t.m32 + a4 * t.m42,
             a1 * t.m13 + a2 * t.m23 + a3 * t.m33 + a4 * t.m43,
             a1 * t.m14 + a2 * t.m24 + a3 * t.m34 + a4 * t.m44)
        }
        let r1 = row(m11, m12, m13, m14), r2 = row(m21, m22, m23, m24)
        let r3 = row(m31, m32, m33, m34), r4 = row(m41, m42, m43, m44)
        return Transform3D(m11: r1.0, m12: r1.1, m13: r1.2, m14: r1.3, m21: r2.0, m22: r2.1, m23: r2.2, m24: r2.3,
                           m31: r3.0, m32: r3.1, m33: r3.2, m34: r3.3, m41: r4.0, m42: r4.1, m43: r4.2, m44: r4.3)
    }

    public func translatedBy(x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(translationX: x, y: y, z: z).concatenating(self)
    }

    public func scaledBy(x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(scaleX: x, y: y, z: z).concatenating(self)
    }

    public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    public var determinant: Double {
        let r = rows
        func det3(_ a: Int, _ b: Int, _ c: Int, _ skip: Int) -> Double {
            let cols = (0..<4).filter { $0 != skip }
            let (x, y, z) = (cols[0], cols[1], cols[2])
            return r[a][x] * (r[b][y] * r[c][z] - r[b][z] * r[c][y])
                - r[a][y] * (r[b][x] * r[c][z] - r[b][z] * r[c][x])
                + r[a][z] * (r[b][x] * r[c][y] - r[b][y] * r[c][x])
        }
        return r[0][0] * det3(1, 2, 3, 0) - r[0][1] * det3(1, 2, 3, 1)
            + r[0][2] * det3(1, 2, 3, 2) - r[0][3] * det3(1, 2, 3, 3)
    }

    /// The inverse (`CATransform3DInvert`); a singular matrix is returned unchanged,
    /// as Core Animation does. Gauss–Jordan elimination with partial pivoting.
    public func inverted() -> Transform3D {
        var a = rows
        var inv = Transform3D.identity.rows
        for col in 0..<4 {
            guard let pivot = (col..<4).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                  abs(a[pivot][col]) > 1e-15 else { return self }
            a.swapAt(col, pivot); inv.swapAt(col, pivot)
            let p = a[col][col]
            for j in 0..<4 { a[col][j] /= p; inv[col][j] /= p }
            for i in 0..<4 where i != col {
                let f = a[i][col]
                if f == 0 { continue }
                for j in 0..<4 { a[i][j] -= f * a[col][j]; inv[i][j] -= f * inv[col][j] }
            }
        }
        return Transform3D(rows: inv)
    }

    /// Maps a point of the z = 0 plane, with the perspective divide. Returns nil
    /// when the point lands at or behind the eye (w ≤ 0).
    public func project(_ p: Point) -> Point? {
        let w = p.x * m14 + p.y * m24 + m44
        guard w > 1e-12 else { return nil }
        return Point(x: (p.x * m11 + p.y * m21 + m41) / w, y: (p.x * m12 + p.y * m22 + m42) / w)
    }

    public var description: String {
        rows.map { $0.map { "\($0)" }.joined(separator: " ") }.joined(separator: " | ")
    }
}
