/// What a text view tells and asks about editing (`UITextViewDelegate`). Every
/// method has a default: begin and end editing are allowed, every change is.
@MainActor
public protocol TextViewDelegate: AnyObject {
    func textViewShouldBeginEditing(_ textView: TextView) -> Bool
    func textViewDidBeginEditing(_ textView: TextView)
    func textViewShouldEndEditing(_ textView: TextView) -> Bool
    func textViewDidEndEditing(_ textView: TextView)
    /// Asked before the person's edit replaces `range` of the text with `text`
    /// (typing, deleting, pasting, an input method's commit, undo excepted); false refuses it.
    func textView(_ textView: TextView, shouldChangeTextIn range: Range<String.Index>, replacementText text: String) -> Bool
    /// The person changed the text (not code setting ``TextView/text``).
    func textViewDidChange(_ textView: TextView)
    func textViewDidChangeSelection(_ textView: TextView)
}

extension TextViewDelegate {
    public func textViewShouldBeginEditing(_ textView: TextView) -> Bool { true }
    public func textViewDidBeginEditing(_ textView: TextView) {}
    public func textViewShouldEndEditing(_ textView: TextView) -> Bool { true }
    public func textViewDidEndEditing(_ textView: TextView) {}
    public func textView(_ textView: TextView, shouldChangeTextIn range: Range<String.Index>, replacementText text: String) -> Bool { true }
    public func textViewDidChange(_ textView: TextView) {}
    public func textViewDidChangeSelection(_ textView: TextView) {}
}
