/// A link to more about an item (GPX `link`; GPX 1.0's `url` and `urlname`).
public struct Link: Hashable, Sendable {
    /// The address.
    public var href: String
    /// The text to show for the link, if any.
    public var text: String?
    /// The MIME type of what the link points at, if given.
    public var type: String?

    public init(href: String, text: String? = nil, type: String? = nil) {
        self.href = href
        self.text = text
        self.type = type
    }
}
