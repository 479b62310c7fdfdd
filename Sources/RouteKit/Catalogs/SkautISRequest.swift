/// The SOAP 1.1 request body for the SkautIS `AdvertisingSummary` operation (service `OrganizationUnit`,
/// namespace `https://is.skaut.cz/`), whose answer ``ClubroomCatalog`` reads.
///
/// The request carries the input `advertisingSummaryInput` in the service's order: `ID_Login`,
/// `ID_Application` (placeholders the user replaces: SkautIS gives an application id to registered
/// applications), `ID_Unit` (a placeholder when a unit is asked for: the service wants the unit's numeric
/// id, not its registration number), `IncludeChildUnits`, `ID_Realty` (nil), `Distance`, `GpsLatitude`,
/// `GpsLongitude`. Missing values are written `xsi:nil="true"`.
public struct SkautISRequest: Sendable {
    /// Where to send the request (HTTP POST).
    public static let endpoint = "https://is.skaut.cz/JunakWebservice/OrganizationUnit.asmx"
    /// The `SOAPAction` header the service expects, without its quotes.
    public static let soapAction = "https://is.skaut.cz/AdvertisingSummary"
    /// The placeholder written for `ID_Application`.
    public static let applicationPlaceholder = "YOUR-APPLICATION-ID"
    /// The placeholder written for `ID_Login`.
    public static let loginPlaceholder = "YOUR-LOGIN-ID"
    /// The placeholder written for `ID_Unit` when ``unitNumber`` is set.
    public static let unitPlaceholder = "UNIT-ID"

    /// Where to search from; nil to ask by unit only.
    public var position: Coordinate?
    /// The search radius in metres, sent as `Distance` in whole metres (rounded up). `Distance` is an
    /// integer whose unit the service's published descriptions do not state; metres are the safe reading:
    /// were the service to read kilometres, its answer would only be larger, and `routekit near` applies the
    /// exact radius itself.
    public var radiusMeters: Double
    /// The registration number of the unit asked for (`621.03`), named in a comment beside `ID_Unit`.
    public var unitNumber: String?

    public init(position: Coordinate?, radiusMeters: Double, unitNumber: String? = nil) {
        self.position = position
        self.radiusMeters = radiusMeters
        self.unitNumber = unitNumber
    }

    /// The whole request: an XML declaration, a comment naming the placeholders to replace, the envelope.
    public func xml() -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<!-- SkautIS AdvertisingSummary: before sending, replace \(Self.applicationPlaceholder) with your "
                + "application's"
                + " ID_Application and \(Self.loginPlaceholder) with a login token (ID_Login)"
                + (unitNumber.map { ", and \(Self.unitPlaceholder) with the SkautIS id (ID_Unit) of unit \($0)" } ?? "")
                + ". POST it to \(Self.endpoint) with the header SOAPAction: \"\(Self.soapAction)\". -->",
            "<soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" "
                + "xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">",
            "  <soap:Body>",
            "    <AdvertisingSummary xmlns=\"https://is.skaut.cz/\">",
            "      <advertisingSummaryInput>",
        ]
        func element(_ name: String, _ value: String?) {
            lines.append(value.map { "        <\(name)>\($0)</\(name)>" } ?? "        <\(name) xsi:nil=\"true\" />")
        }
        element("ID_Login", Self.loginPlaceholder)
        element("ID_Application", Self.applicationPlaceholder)
        element("ID_Unit", unitNumber == nil ? nil : Self.unitPlaceholder)
        element("IncludeChildUnits", "true")
        element("ID_Realty", nil)
        element("Distance", position == nil ? nil : String(Int(min(radiusMeters, 1e9).rounded(.up))))
        element("GpsLatitude", position.map { DecimalText.string($0.latitude) })
        element("GpsLongitude", position.map { DecimalText.string($0.longitude) })
        lines += [
            "      </advertisingSummaryInput>", "    </AdvertisingSummary>", "  </soap:Body>", "</soap:Envelope>", "",
        ]
        return lines.joined(separator: "\n")
    }
}
