/// Something a menu can hold (`UIMenuElement`): a title and an image. Key
/// commands are menu elements too, so a menu can show their shortcuts.
@MainActor
open class MenuElement {
    public var title: String
    public var image: Image?

    public init(title: String, image: Image? = nil) {
        self.title = title
        self.image = image
    }
}
