/// One catalog record (one recruitment: a unit × a meeting × an age and sex category at a place) with the 29
/// SkautIS `AdvertisingSummaryOutput` fields (and a plain name) in fixed slots, so that reading thousands of
/// records costs no dictionary per record.
struct CatalogRecord {
    enum Field: Int, CaseIterable {
        case idUnit, unit, registrationNumber, isWater, advertisingNote
        case categoryID, ageFrom, ageTo, sex, sexName, categoryNote
        case meetingID, weekdayCode, weekday, timeFrom, timeTo, periodicity
        case occupationID, occupationNote
        case realtyID, realtyTypeID, realtyType, street, city, postcode, latitude, longitude, description, realtyNote
        case name

        /// The SkautIS `AdvertisingSummaryOutput` element name (or, for `name`, the plain name).
        var skautISName: StaticString {
            switch self {
            case .idUnit: "ID_Unit"
            case .unit: "Unit"
            case .registrationNumber: "RegistrationNumber"
            case .isWater: "IsWater"
            case .advertisingNote: "Advertising_Note"
            case .categoryID: "ID_AdvertisingCategory"
            case .ageFrom: "AdvertisingCategory_AgeFrom"
            case .ageTo: "AdvertisingCategory_AgeTo"
            case .sex: "AdvertisingCategory_ID_Sex"
            case .sexName: "AdvertisingCategory_Sex"
            case .categoryNote: "AdvertisingCategory_Note"
            case .meetingID: "MeetingDate_ID"
            case .weekdayCode: "MeetingDate_ID_WeekDay"
            case .weekday: "MeetingDate_WeekDay"
            case .timeFrom: "MeetingDate_TimeFrom"
            case .timeTo: "MeetingDate_TimeTo"
            case .periodicity: "MeetingDate_Periodicity"
            case .occupationID: "Occupation_ID"
            case .occupationNote: "Occupation_Note"
            case .realtyID: "Realty_ID"
            case .realtyTypeID: "Realty_ID_RealtyType"
            case .realtyType: "Realty_RealtyType"
            case .street: "Realty_Street"
            case .city: "Realty_City"
            case .postcode: "Realty_Postcode"
            case .latitude: "Realty_GpsLatitude"
            case .longitude: "Realty_GpsLongitude"
            case .description: "Realty_Description"
            case .realtyNote: "Realty_Note"
            case .name: "Name"
            }
        }

        /// The field of an XML element's local name, compared byte by byte.
        static func named(_ localName: UnsafePointer<UInt8>) -> Field? {
            allCases.first { XMLName.equals(localName, $0.skautISName) }
        }

        /// The field of a column or property name: the SkautIS name (any case) or a plain alias.
        static func named(_ name: String) -> Field? {
            byName[name.lowercased()]
        }

        private static let byName: [String: Field] = {
            var table: [String: Field] = [:]
            for f in Field.allCases {
                table[f.skautISName.withUTF8Buffer { String(decoding: $0, as: UTF8.self) }.lowercased()] = f
            }
            let aliases: [String: Field] = [
                "id": .realtyID, "id_realty": .realtyID, "nazev": .name, "název": .name, "jednotka": .unit,
                "registration_number": .registrationNumber, "evidencni_cislo": .registrationNumber,
                "ev_cislo": .registrationNumber,
                "type": .realtyType, "street": .street, "ulice": .street, "city": .city, "obec": .city, "mesto": .city,
                "město": .city, "postcode": .postcode, "psc": .postcode, "psč": .postcode, "description": .description,
                "note": .realtyNote, "weekday": .weekday, "time_from": .timeFrom, "time_to": .timeTo,
                "periodicity": .periodicity, "age_from": .ageFrom, "age_to": .ageTo, "sex": .sex,
                "meeting_note": .categoryNote,
                "water": .isWater, "is_water": .isWater, "water_scouts": .isWater, "meeting_id": .meetingID,
                "category_id": .categoryID, "weekday_code": .weekdayCode, "day": .weekdayCode, "sex_name": .sexName,
                "category_note": .categoryNote, "occupation_note": .occupationNote,
                "advertising_note": .advertisingNote,
            ]
            table.merge(aliases) { a, _ in a }
            return table
        }()
    }

    private var values = [String?](repeating: nil, count: Field.allCases.count)

    /// Empties every field (keeping the memory, for the next record).
    mutating func removeAll() {
        for k in values.indices { values[k] = nil }
    }

    subscript(field: Field) -> String? {
        get { values[field.rawValue] }
        set { values[field.rawValue] = newValue }
    }

    /// The field's value with white space trimmed; nil when empty.
    func value(_ field: Field) -> String? {
        guard let v = values[field.rawValue]?.trimmingSpaces(), !v.isEmpty else { return nil }
        return v
    }
}
