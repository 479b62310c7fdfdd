/// Reads the SkautIS `AdvertisingSummary` response: the SOAP envelope as saved from the service, or just
/// a list of `AdvertisingSummaryOutput` records (one or many), streamed with libxml2. Each record's child
/// elements (the 29 fields `ID_Unit`, `Unit`, `IsWater`, `MeetingDate_ID`, `Realty_ID`, `Realty_GpsLatitude`, …)
/// become its fields, whatever their namespace prefix; an element marked `xsi:nil="true"` or empty is a
/// missing value. A SOAP fault is an error that quotes the service's message.
struct SkautISCatalogReader {
    func read(_ input: InputFile, into catalog: inout ClubroomCatalog) throws {
        let handler = RecordCollector()
        let parser = XMLStreamParser(handler: handler, name: input.path)
        handler.parser = parser
        if try !parser.feed(input, chunkSize: 1 << 16) {
            parser.parse(UnsafeRawBufferPointer(start: nil, count: 0), isLast: true)  // an empty file: libxml2 says so
        }
        try withExtendedLifetime(parser) {
            if let fault = handler.fault { throw CatalogError.soapFault(fault) }
            if let error = parser.error {
                let reason =
                    error.overLimit
                    ? XMLStreamParser.refusal(error.message)
                    : parser.errorAtEnd
                        ? "the file ends in the middle of the XML: is it truncated?"
                        : "not well-formed XML: \(error.message)"
                throw CatalogError.malformed(line: error.line, column: error.column, reason: reason)
            }
        }
        for (fields, line) in handler.records { catalog.add(fields, file: input.path, line: line) }
        if handler.records.isEmpty && handler.sawOtherRoot {
            throw CatalogError.unknownFormat("XML without AdvertisingSummaryOutput records")
        }
    }
}

/// Collects the records of a SkautIS response.
private final class RecordCollector: XMLStreamHandler {
    unowned(unsafe) var parser: XMLStreamParser! = nil
    var records: [(CatalogRecord, Int)] = []
    var fault: String?
    var sawOtherRoot = false
    private var depth = 0
    private var recordDepth: Int?
    private var recordLine = 0
    private var fields = CatalogRecord()
    private var field: CatalogRecord.Field?
    private var inFaultString = false
    private var text: [UInt8] = []
    private var faultDepth: Int?
    private var faultText: String?
    private var inFault: Bool { faultDepth != nil }

    override func startElement(
        localName: UnsafePointer<UInt8>, namespaceURI: UnsafePointer<UInt8>?, attributes: XMLAttributes
    ) {
        depth += 1
        if depth == 1 { sawOtherRoot = true }
        if faultDepth == nil && XMLName.equals(localName, "Fault") { faultDepth = depth }
        if recordDepth == nil && XMLName.equals(localName, "AdvertisingSummaryOutput") {
            recordDepth = depth
            recordLine = parser.line
            fields = CatalogRecord()
            return
        }
        if let recordDepth, depth == recordDepth + 1 {
            // An xsi:nil element is a missing value, whatever text it might hold.
            field = attributes.isNil ? nil : CatalogRecord.Field.named(localName)
            text.removeAll(keepingCapacity: true)
        } else if inFault && (XMLName.equals(localName, "faultstring") || XMLName.equals(localName, "Text")) {
            inFaultString = true
            text.removeAll(keepingCapacity: true)
        }
    }

    override func endElement() {
        if let field {
            fields[field] = String(decoding: text, as: UTF8.self)
            self.field = nil
        } else if inFaultString {
            faultText = String(decoding: text, as: UTF8.self).trimmingSpaces()
            inFaultString = false
        }
        if let d = recordDepth, depth == d {
            records.append((fields, recordLine))
            recordDepth = nil
        }
        if let d = faultDepth, depth == d, fault == nil { fault = faultText ?? "a SOAP fault without a message" }
        depth -= 1
    }

    override func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard field != nil || inFaultString else { return }
        // A value over the readers' limit is left out (memory stays bounded whatever the file holds).
        if text.count + bytes.count > XMLStreamParser.maximumTextLength {
            field = nil
            inFaultString = false
            text.removeAll()
            return
        }
        text.append(contentsOf: bytes)
    }
}
