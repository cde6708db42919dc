/// A string with attributes over ranges of it (`NSAttributedString`, the part a
/// label draws): font, colour and weight per run. Where runs overlap the later
/// one wins for the attributes it sets; unset attributes come from the label.
public struct AttributedText: Hashable, Sendable {
    /// Attributes of a run; nil ones are the label's.
    public struct Attributes: Hashable, Sendable {
        public var font: Font?
        public var color: Color?
        /// Overrides the weight of the run's font.
        public var weight: Font.Weight?

        public init(font: Font? = nil, color: Color? = nil, weight: Font.Weight? = nil) {
            self.font = font
            self.color = color
            self.weight = weight
        }
    }

    struct Run: Hashable, Sendable {
        var bytes: Range<Int>   // UTF-8 offsets
        var attributes: Attributes
    }

    public let string: String
    private(set) var runs: [Run] = []

    public init(_ string: String) {
        self.string = string
    }

    init(_ string: String, runs: [Run]) {
        self.string = string
        self.runs = runs
    }

    /// Sets attributes over `range` of ``string`` (ranges outside it are clamped).
    public mutating func setAttributes(_ attributes: Attributes, range: Range<String.Index>) {
        let utf8 = string.utf8
        let lower = utf8.distance(from: utf8.startIndex, to: max(range.lowerBound, utf8.startIndex))
        let upper = utf8.distance(from: utf8.startIndex, to: min(range.upperBound, utf8.endIndex))
        guard lower < upper else { return }
        runs.append(Run(bytes: lower..<upper, attributes: attributes))
    }

    /// Sets attributes over every occurrence of `substring`.
    public mutating func setAttributes(_ attributes: Attributes, forOccurrencesOf substring: String) {
        guard !substring.isEmpty else { return }
        var from = string.startIndex
        while let found = string[from...].firstRange(of: substring) {
            setAttributes(attributes, range: found)
            from = found.upperBound
        }
    }

    mutating func copyRuns(from other: AttributedText) { runs = other.runs }

    /// The colour at a UTF-8 offset: the last run over it that sets one.
    func color(atByte offset: Int) -> Color? {
        for run in runs.reversed() where run.attributes.color != nil && run.bytes.contains(offset) {
            return run.attributes.color
        }
        return nil
    }
}

extension AttributedText: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self.init(value) }
}
