/// A scout unit that recruits at a clubroom (SkautIS `ID_Unit`, `Unit`, `RegistrationNumber`, `IsWater`,
/// `Advertising_Note`).
public struct ScoutUnit: Hashable, Sendable {
    /// The unit's id in SkautIS, if known.
    public var id: String?
    /// The unit's name.
    public var name: String
    /// Its registration number, hierarchical with dots (`621`, `621.03`, `621.03.01`).
    public var registrationNumber: String?
    /// True for water scouts (SkautIS `IsWater`); nil when the catalog does not say.
    public var isWater: Bool?
    /// The unit's recruitment text (SkautIS `Advertising_Note`).
    public var advertisingNote: String?

    /// A unit with what the catalog says of it.
    public init(
        id: String? = nil, name: String, registrationNumber: String? = nil, isWater: Bool? = nil,
        advertisingNote: String? = nil
    ) {
        self.id = id
        self.name = name
        self.registrationNumber = registrationNumber
        self.isWater = isWater
        self.advertisingNote = advertisingNote
    }

    /// True when this unit is `number` or one of its child units: its registration number equals
    /// `number` or starts with `number` followed by a dot (`621.03` covers `621.03.01`, not `621.031`).
    public func belongs(to number: String) -> Bool {
        guard let own = registrationNumber else { return false }
        return own == number || own.hasPrefix(number + ".")
    }
}

/// Who an advertising category is for (SkautIS `AdvertisingCategory_ID_Sex`).
public enum Sex: String, CaseIterable, Sendable {
    /// Boys only (`male`).
    case boys
    /// Girls only (`female`).
    case girls
    /// Boys and girls (any other code).
    case mixed

    /// Reads a sex code: `male` (also `boys`, `chlapci`, `kluci`) is boys, `female` (also `girls`, `dívky`,
    /// `holky`) is girls, any other value (`mixed`, `both`, `koedukovaný`…) is mixed; any case.
    public init(code: String) {
        switch Weekday.folded(code.trimmingSpaces()) {
        case "male", "boys", "boy", "chlapci", "kluci": self = .boys
        case "female", "girls", "girl", "divky", "holky": self = .girls
        default: self = .mixed
        }
    }

    /// The SkautIS code: `male`, `female` or `mixed`.
    public var code: String {
        switch self {
        case .boys: "male"
        case .girls: "female"
        case .mixed: "mixed"
        }
    }

    /// True when a category of this sex is open to `wanted`: the same sex, or mixed.
    public func admits(_ wanted: Sex) -> Bool { self == wanted || self == .mixed || wanted == .mixed }
}

/// One age and sex category of a meeting (SkautIS `ID_AdvertisingCategory` and `AdvertisingCategory_*`).
public struct AdvertisingCategory: Hashable, Sendable {
    /// The category's id in SkautIS, if known.
    public var id: String?
    /// Youngest age in years.
    public var ageFrom: Int?
    /// Oldest age in years.
    public var ageTo: Int?
    /// Who may come; nil when the catalog does not say (open to all).
    public var sex: Sex?
    /// The catalog's own word for the sex (`chlapci`, `dívky`, `koedukovaný`), for showing.
    public var sexName: String?
    /// A note on the category.
    public var note: String?

    /// A category; ages in whole years.
    public init(
        id: String? = nil, ageFrom: Int? = nil, ageTo: Int? = nil, sex: Sex? = nil, sexName: String? = nil,
        note: String? = nil
    ) {
        self.id = id
        self.ageFrom = ageFrom
        self.ageTo = ageTo
        self.sex = sex
        self.sexName = sexName
        self.note = note
    }

    /// True when a child of `age` years fits: within the ages the category gives (a category without
    /// ages takes every age; one with only a lower or an upper bound is open on the other side).
    public func admits(age: Int) -> Bool {
        (ageFrom.map { age >= $0 } ?? true) && (ageTo.map { age <= $0 } ?? true)
    }

    /// True when there is nothing in it.
    var isEmpty: Bool { id == nil && ageFrom == nil && ageTo == nil && sex == nil && sexName == nil && note == nil }
}

/// A regular meeting advertised for recruitment (SkautIS `MeetingDate_*`), with its age and sex categories.
public struct Meeting: Hashable, Sendable {
    /// The meeting's id in SkautIS (`MeetingDate_ID`), if known.
    public var id: String?
    /// The unit that meets.
    public var unit: ScoutUnit?
    /// The day of the week, from the code or the name; nil when neither could be read.
    public var weekday: Weekday?
    /// The day's name as the catalog wrote it (`úterý`), kept for showing.
    public var weekdayName: String?
    /// Start time (`16:30`), or the text as written when it could not be read.
    public var timeFrom: MeetingTime?
    /// End time.
    public var timeTo: MeetingTime?
    /// How often (`každý týden`, `weekly`, `every other week`).
    public var periodicity: String?
    /// The age and sex categories the meeting is for, each once.
    public var categories: [AdvertisingCategory]

    /// A meeting with what the catalog says of it.
    public init(
        id: String? = nil, unit: ScoutUnit? = nil, weekday: Weekday? = nil, weekdayName: String? = nil,
        timeFrom: MeetingTime? = nil, timeTo: MeetingTime? = nil, periodicity: String? = nil,
        categories: [AdvertisingCategory] = []
    ) {
        self.id = id
        self.unit = unit
        self.weekday = weekday
        self.weekdayName = weekdayName
        self.timeFrom = timeFrom
        self.timeTo = timeTo
        self.periodicity = periodicity
        self.categories = categories
    }

    /// The day to show: the catalog's own name (Czech in SkautIS), else the Czech name of the day read.
    public var dayName: String? { weekdayName ?? weekday?.czechName }

    /// The times to show: `16:30–18:00`, `16:30`, or nil.
    public var times: String? {
        guard let timeFrom else { return timeTo.map { "–\($0)" } }
        return timeFrom.description + (timeTo.map { "–\($0)" } ?? "")
    }

    /// True when the meeting's unit is a water scout unit.
    public var isWater: Bool { unit?.isWater == true }
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
    /// Street and number (SkautIS `Realty_Street`).
    public var street: String?
    /// Town or city.
    public var city: String?
    /// Postal code.
    public var postcode: String?
    /// Description and notes (SkautIS `Realty_Description`, `Realty_Note`, `Occupation_Note`).
    public var description: String?
    /// A note on the place (SkautIS `Realty_Note`, else `Occupation_Note`).
    public var note: String?
    /// A note on the unit's use of the place (SkautIS `Occupation_Note`).
    public var occupationNote: String?
    /// The units that recruit here, each once.
    public var units: [ScoutUnit] = []
    /// The meetings held here.
    public var meetings: [Meeting] = []

    public init(id: String, name: String, coordinate: Coordinate) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
    }

    /// A place with every field of its own, and no units or meetings (yet).
    package init(
        id: String, name: String, coordinate: Coordinate, type: String?, street: String?, city: String?,
        postcode: String?, description: String?, note: String?, occupationNote: String?
    ) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.type = type
        self.street = street
        self.city = city
        self.postcode = postcode
        self.description = description
        self.note = note
        self.occupationNote = occupationNote
    }

    /// True when a water scout unit recruits here.
    public var isWater: Bool { units.contains { $0.isWater == true } }

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
            return "no \(what) column (looked for lat, latitude, y, Realty_GpsLatitude, zeměpisná šířka…)"
        case .soapFault(let message): return "the SkautIS service answered with an error: \(message)"
        case .unknownFormat(let reason): return "not a clubroom catalog: \(reason)"
        case let .malformed(line, column, reason): return "\(line):\(column): \(reason)"
        }
    }
}
