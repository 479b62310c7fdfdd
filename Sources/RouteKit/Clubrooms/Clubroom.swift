/// A scout unit that recruits at a clubroom (SkautIS `ID_Unit`, `Unit`, `RegistrationNumber`).
public struct ScoutUnit: Hashable, Sendable {
    /// The unit's id in SkautIS, if known.
    public var id: String?
    /// The unit's name.
    public var name: String
    /// Its registration number, hierarchical with dots (`621`, `621.03`, `621.03.01`).
    public var registrationNumber: String?

    public init(id: String? = nil, name: String, registrationNumber: String? = nil) {
        self.id = id
        self.name = name
        self.registrationNumber = registrationNumber
    }

    /// True when this unit is `number` or one of its child units: its registration number equals
    /// `number` or starts with `number` followed by a dot (`621.03` covers `621.03.01`, not `621.031`).
    public func belongs(to number: String) -> Bool {
        guard let own = registrationNumber else { return false }
        return own == number || own.hasPrefix(number + ".")
    }
}

/// A regular meeting advertised for recruitment (SkautIS `MeetingDate_*` and `AdvertisingCategory_*`).
public struct Meeting: Hashable, Sendable {
    /// The unit that meets.
    public var unit: ScoutUnit?
    /// The day of the week as the catalog writes it (`pondělí`, `Monday`, `1`).
    public var weekday: String?
    /// Start time as written (`16:30`).
    public var timeFrom: String?
    /// End time as written.
    public var timeTo: String?
    /// How often (`každý týden`, `weekly`, `every other week`).
    public var periodicity: String?
    /// Youngest age in years.
    public var ageFrom: Int?
    /// Oldest age in years.
    public var ageTo: Int?
    /// Who may come (`boys`, `girls`, `mixed` or the catalog's own word).
    public var sex: String?
    /// A note on the meeting.
    public var note: String?

    public init(
        unit: ScoutUnit? = nil, weekday: String? = nil, timeFrom: String? = nil, timeTo: String? = nil,
        periodicity: String? = nil, ageFrom: Int? = nil, ageTo: Int? = nil, sex: String? = nil, note: String? = nil
    ) {
        self.unit = unit
        self.weekday = weekday
        self.timeFrom = timeFrom
        self.timeTo = timeTo
        self.periodicity = periodicity
        self.ageFrom = ageFrom
        self.ageTo = ageTo
        self.sex = sex
        self.note = note
    }
}

/// A clubroom: a place where scout units meet, with its address, the units that recruit there and their
/// meetings. Catalog records with the same id (SkautIS `Realty_ID`) are one clubroom.
public struct Clubroom: Hashable, Sendable {
    /// The clubroom's id: SkautIS `Realty_ID`, the CSV's `id` column, or the GeoJSON Feature's id.
    public var id: String
    /// A display name: the first unit's name, or the catalog's own name field.
    public var name: String
    /// Where it is.
    public var coordinate: Coordinate
    /// Kind of building (SkautIS `Realty_RealtyType`).
    public var type: String?
    public var street: String?
    public var city: String?
    public var postcode: String?
    /// Description and notes (SkautIS `Realty_Description`, `Realty_Note`, `Occupation_Note`).
    public var description: String?
    public var note: String?
    /// The units that recruit here, each once.
    public var units: [ScoutUnit] = []
    /// The meetings held here.
    public var meetings: [Meeting] = []

    public init(id: String, name: String, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
    }

    /// The address in one line: street, postcode and city, as far as known.
    public var address: String {
        [street, [postcode, city].compactMap { $0 }.joined(separator: " ")].compactMap { $0 }
            .filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// Why a catalog could not be read.
public enum CatalogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A CSV file has no column that holds latitudes or longitudes.
    case missingColumn(String)
    /// The SkautIS service answered with a SOAP fault instead of records.
    case soapFault(String)
    /// The file is not a catalog RouteKit knows (SkautIS XML, CSV with a header, GeoJSON Points).
    case unknownFormat(String)
    /// The file is malformed where it matters (line and column 1-based).
    case malformed(line: Int, column: Int, reason: String)
    /// A GeoJSON catalog is not valid JSON or not GeoJSON.
    case geojson(GeoJSONError)
    /// One of several catalog files has this problem.
    indirect case inFile(path: String, CatalogError)

    /// The problem itself, whichever file it is in.
    public var underlying: CatalogError {
        if case .inFile(_, let error) = self { return error.underlying }
        return self
    }

    public var description: String {
        switch self {
        case let .inFile(path, error):
            return IOError.located(error.description, in: path)
        case .geojson(let error): return error.description
        case .missingColumn(let what):
            return "no \(what) column (looked for lat, latitude, y, Realty_GpsLatitude, zeměpisná šířka…; name it with --lat-column/--lon-column)"
        case .soapFault(let message): return "the SkautIS service answered with an error: \(message)"
        case .unknownFormat(let reason): return "not a clubroom catalog: \(reason)"
        case let .malformed(line, column, reason): return "\(line):\(column): \(reason)"
        }
    }
}
