internal import CLibXML2

/// Receives the events of ``XMLStreamParser``; subclasses override what they need. Pointers are valid only
/// during the call. A class rather than a protocol so that the parser can call it through an unretained
/// reference: the callbacks run millions of times per file.
class XMLStreamHandler {
    /// An element starts. `localName` and `namespaceURI` are NUL-terminated UTF-8.
    func startElement(
        localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, attributes: XMLAttributes
    ) {}
    /// The innermost open element ends.
    func endElement() {}
    /// Text inside the innermost open element; may come in several pieces.
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
    /// A CDATA section inside the innermost open element; by default, text like any other.
    func cdata(_ text: UnsafeBufferPointer<UInt8>) { characters(text) }
}

/// Why a document could not be read, sorted out of libxml2's first fatal error for the format readers,
/// which each turn it into their own error type.
struct XMLFailure {
    enum Kind {
        /// The input stops in the middle of something: `reason` names what was open.
        case truncated
        /// One of libxml2's limits against hostile files (a single tag, value or comment over 10,000,000 bytes).
        case tooLarge
        /// Not well-formed XML.
        case malformed
    }

    let kind: Kind
    let line: Int
    let column: Int
    let reason: String
}

/// The attributes of a start tag, as libxml2's SAX2 interface hands them over (5 pointers each: local name,
/// prefix, namespace URI, value start, value end; values are not NUL-terminated).
struct XMLAttributes {
    fileprivate let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    let count: Int

    /// The value of the attribute with this local name and no namespace, as bytes; nil when absent.
    func value(_ name: StaticString) -> UnsafeBufferPointer<UInt8>? {
        guard let base else { return nil }
        for i in 0..<count {
            guard let local = base[5 * i], base[5 * i + 2] == nil,
                let start = base[5 * i + 3], let end = base[5 * i + 4]
            else { continue }
            if XMLName.equals(local, name) { return UnsafeBufferPointer(start: start, count: end - start) }
        }
        return nil
    }

    /// The local name and value of the `i`th attribute, whatever its namespace; nil when libxml2 left one out.
    subscript(i: Int) -> (String, String)? {
        guard let base, i < count, let local = base[5 * i], let start = base[5 * i + 3], let end = base[5 * i + 4]
        else { return nil }
        return (
            XMLName.string(local),
            String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
        )
    }

    /// True when the element says `xsi:nil="true"` (or `"1"`): XML Schema's missing value, whatever the
    /// namespace's prefix.
    var isNil: Bool {
        guard let base else { return false }
        for i in 0..<count {
            guard let local = base[5 * i], let uri = base[5 * i + 2], let start = base[5 * i + 3],
                let end = base[5 * i + 4],
                XMLName.equals(local, "nil"), XMLName.equals(uri, "http://www.w3.org/2001/XMLSchema-instance")
            else { continue }
            let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                .trimmingSpaces()
            return value == "true" || value == "1"
        }
        return false
    }
}

/// Comparisons of NUL-terminated element names without making strings.
enum XMLName {
    @inline(__always)
    static func equals(_ name: UnsafePointer<UInt8>, _ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        let l = literal.utf8Start
        for i in 0..<n where name[i] != l[i] { return false }
        return name[n] == 0
    }

    static func string(_ name: UnsafePointer<UInt8>?) -> String {
        guard let name else { return "" }
        return String(cString: name)
    }
}

/// libxml2's SAX2 push parser, fed in chunks, in constant memory.
///
/// Safe for untrusted input: no network access (`XML_PARSE_NONET`), no entity substitution and no DTD
/// loading (`XML_PARSE_NOENT` and `XML_PARSE_DTDLOAD` are not set, and no entity handlers are installed,
/// so an entity reference is never expanded: an external entity is never read), libxml2's default limits
/// on nesting and text size. libxml2 prints nothing (`XML_PARSE_NOERROR`, `XML_PARSE_NOWARNING`); its
/// first error is kept with its line and column.
final class XMLStreamParser {
    /// The longest text value a reader keeps (1 MiB): a longer one is left out, so that a hostile file cannot
    /// make a reader hold gigabytes of one value.
    static let maximumTextLength = 1 << 20

    // Not retained: the handler outlives every parse (the reader holds both), and the callbacks are hot.
    private let handler: Unmanaged<XMLStreamHandler>
    private var context: xmlParserCtxtPtr?
    private let name: String
    private var stopped = false
    /// How a message words an error that is one of libxml2's limits (`overLimit`).
    static func refusal(_ message: String) -> String {
        "refused: a single tag, value or comment over 10,000,000 bytes (libxml2: \(message))"
    }

    /// The first fatal error libxml2 reported, if any; `overLimit` when it is one of libxml2's limits against
    /// hostile files (a single tag, value or comment over 10,000,000 bytes), not a mistake in the XML.
    private(set) var error: (line: Int, column: Int, message: String, overLimit: Bool)?

    /// libxml2's global state, set up once before any parser runs (it must be, before parsers run on
    /// several threads at once).
    private static let libraryReady: Bool = {
        xmlInitParser()
        return true
    }()

    init(handler: XMLStreamHandler, name: String) {
        _ = Self.libraryReady
        self.handler = Unmanaged.passUnretained(handler)
        self.name = name
    }

    deinit {
        if let context {
            xmlFreeDoc(context.pointee.myDoc)  // NULL-safe; nothing is built since no tree handlers are set
            xmlFreeParserCtxt(context)
        }
    }

    /// The line (1-based) the parser is at.
    var line: Int { context.map { Int(xmlSAX2GetLineNumber($0)) } ?? 1 }
    /// The column (1-based) the parser is at.
    var column: Int { context.map { Int(xmlSAX2GetColumnNumber($0)) } ?? 1 }

    /// Stops parsing; later chunks are ignored. For handlers that found a reason to stop.
    func stop() {
        stopped = true
        if let context { xmlStopParser(context) }
    }

    /// True when the first error came only once the input ended (from the closing call with no bytes): the
    /// document stops in the middle of something, as a truncated file does.
    private(set) var errorAtEnd = false

    /// libxml2's first fatal error, sorted out: nil when there was none. `openElement` is the name of the
    /// element open where the reader stopped (nil before the root): a file that stops in the middle of something
    /// is reported as truncated, naming it, rather than with libxml2's words for the piece cut off ("Couldn't
    /// find end of Start Tag", "AttValue: ' expected"; "Extra content at the end of the document" when the
    /// input stops inside an element).
    func failure(openElement: String?, root: String) -> XMLFailure? {
        guard let error else { return nil }
        if errorAtEnd || (openElement != nil && error.message.hasPrefix("Extra content at the end")) {
            let place = openElement.map { "inside <\($0)>" } ?? "before the <\(root)> element starts"
            return XMLFailure(
                kind: .truncated, line: error.line, column: error.column,
                reason: "the file ends \(place): is it truncated?")
        }
        // libxml2's words for bytes that are not UTF-8 ("indicate encoding !") say neither what is wrong nor
        // what to do.
        let reason =
            error.message.hasPrefix("Input is not proper UTF-8")
            ? "the text is not UTF-8 (\(error.message.split(separator: "\n").last ?? "")): a file in another "
                + "encoding must say so on its first line, as in <?xml version=\"1.0\" encoding=\"ISO-8859-1\"?> "
                + "for Latin-1"
            : error.message
        return XMLFailure(
            kind: error.overLimit ? .tooLarge : .malformed, line: error.line, column: error.column, reason: reason)
    }

    /// True once the parser stopped for an error or on request.
    var isStopped: Bool { stopped || error != nil }

    /// Feeds all of `input` to the parser in chunks of `chunkSize` bytes, then ends it (unless it stopped
    /// early); returns whether the input had any bytes at all.
    ///
    /// - Throws: ``IOError`` when reading fails.
    @discardableResult
    func feed(_ input: InputFile, chunkSize: Int = 1 << 18) throws -> Bool {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { chunk.deallocate() }
        var sawBytes = false
        while !isStopped {
            let n = try input.read(into: chunk)
            if n == 0 { break }
            sawBytes = true
            parse(UnsafeRawBufferPointer(rebasing: chunk[0..<n]), isLast: false)
        }
        if sawBytes && !isStopped { parse(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true) }
        return sawBytes
    }

    /// Parses the next chunk of the document; `isLast` ends it.
    func parse(_ chunk: UnsafeRawBufferPointer, isLast: Bool) {
        guard !isStopped else { return }
        defer { if isLast && chunk.isEmpty && error != nil { errorAtEnd = true } }
        let bytes = chunk.bindMemory(to: CChar.self)
        if context == nil {
            // The first bytes decide the encoding (byte-order mark, UTF-16 without one, the XML declaration).
            var sax = XMLStreamParser.makeSAXHandler()
            let first = min(bytes.count, 4)
            let opaque = Unmanaged.passUnretained(self).toOpaque()
            context = xmlCreatePushParserCtxt(&sax, opaque, bytes.baseAddress, Int32(first), name)  // NULL on error
            guard let context else {
                error = (1, 1, "cannot start the XML parser (out of memory)", false)
                return
            }
            // No XML_PARSE_NOCDATA: CDATA comes to the handler's `cdata` (KML tells HTML descriptions by it).
            let options = Int32(
                XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
            xmlCtxtUseOptions(context, options)  // returns the options it did not know: none here
            let rest = UnsafeBufferPointer(rebasing: bytes[first...])
            xmlParseChunk(context, rest.baseAddress, Int32(rest.count), isLast ? 1 : 0)  // errors go to serror
            return
        }
        xmlParseChunk(context, bytes.baseAddress, Int32(bytes.count), isLast ? 1 : 0)  // errors go to serror
    }

    fileprivate func record(_ e: xmlErrorPtr) {
        guard error == nil, !stopped else { return }
        let level = e.pointee.level
        guard level == XML_ERR_FATAL else { return }
        var message = e.pointee.message.map { String(cString: $0) } ?? "unknown error"
        while message.last == "\n" || message.last == " " { message.removeLast() }
        // Entities declared in the document's DTD are never read, so a reference to one is undefined.
        if e.pointee.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue) {
            message +=
                " (entities declared in a DTD are not read: a defence against entity expansion and external entities)"
        }
        // libxml2 says "Huge input lookup", "AttValue length too long", "Comment too big"…: Debian's 2.9 has no
        // error code of its own for its size limits (XML_ERR_RESOURCE_LIMIT came with 2.11), so the words decide.
        let lower = message.lowercased()
        let overLimit = ["huge", "too long", "too big", "excessive"].contains { lower.contains($0) }
        error = (Int(max(e.pointee.line, 1)), Int(max(e.pointee.int2, 1)), message, overLimit)
    }

    private static func makeSAXHandler() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        sax.initialized = UInt32(XML_SAX2_MAGIC)
        sax.startElementNs = { ctx, localName, _, uri, _, _, attributeCount, _, attributes in
            guard let ctx, let localName else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                parser.handler._withUnsafeGuaranteedRef {
                    $0.startElement(
                        localName: localName, namespaceURI: uri,
                        attributes: XMLAttributes(base: attributes, count: Int(attributeCount)))
                }
            }
        }
        sax.endElementNs = { ctx, _, _, _ in
            guard let ctx else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                parser.handler._withUnsafeGuaranteedRef { $0.endElement() }
            }
        }
        sax.characters = { ctx, text, length in
            guard let ctx, let text else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                parser.handler._withUnsafeGuaranteedRef {
                    $0.characters(UnsafeBufferPointer(start: text, count: Int(length)))
                }
            }
        }
        sax.cdataBlock = { ctx, text, length in
            guard let ctx, let text else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(ctx)._withUnsafeGuaranteedRef { parser in
                parser.handler._withUnsafeGuaranteedRef {
                    $0.cdata(UnsafeBufferPointer(start: text, count: Int(length)))
                }
            }
        }
        sax.serror = { ctx, error in
            guard let ctx, let error else { return }
            Unmanaged<XMLStreamParser>.fromOpaque(ctx).takeUnretainedValue().record(error)
        }
        return sax
    }
}
