/// The descriptive fields GPX gives waypoints, routes and tracks, with GPX's abbreviations spelled out.
public struct Details: Hashable, Sendable {
    /// The name (GPX `name`).
    public var name: String?
    /// A comment for the user (GPX `cmt`).
    public var comment: String?
    /// A longer description (GPX `desc`).
    public var description: String?
    /// Where the data came from (GPX `src`).
    public var source: String?
    /// Links to more about the item (GPX `link`; GPX 1.0's `url` and `urlname`).
    public var links: [Link] = []
    /// The symbol to draw (GPX `sym`; waypoints and route points only).
    public var symbol: String?
    /// A classification (GPX `type`).
    public var type: String?
    /// The item's number (GPX `number`; routes and tracks only).
    public var number: Int?
    /// The first name, comment, description, type and time found anywhere inside the item (in its
    /// points, links or extensions). togeojson reports these for an item that has none of its own, and
    /// the GeoJSON writer does the same; they are not the item's own fields.
    public var inherited = InheritedText()

    public init(
        name: String? = nil, comment: String? = nil, description: String? = nil, source: String? = nil,
        links: [Link] = [], symbol: String? = nil, type: String? = nil, number: Int? = nil
    ) {
        self.name = name
        self.comment = comment
        self.description = description
        self.source = source
        self.links = links
        self.symbol = symbol
        self.type = type
        self.number = number
    }

    /// True when no field of the item's own is set.
    public var isEmpty: Bool {
        var own = self
        own.inherited = InheritedText()
        return own == Details()
    }
}

/// Texts of elements named `name`, `cmt`, `desc`, `type` and `time` found first inside an item, in
/// document order; see ``Details/inherited``.
public struct InheritedText: Hashable, Sendable {
    /// The first `name`, `cmt`, `desc`, `type` and `time` texts, as written.
    public var name: String?
    public var comment: String?
    public var description: String?
    public var type: String?
    public var time: String?

    /// Nothing found yet.
    public init() {}
}
