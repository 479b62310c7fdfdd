/// What a family looks for in the clubroom catalog: a unit, an age, a day, boys or girls, water scouts.
///
/// Unit-level criteria (``unit``, ``waterOnly``) choose units; meeting-level ones (``age``, ``weekday``,
/// ``sex``) choose meetings and, within a meeting, its categories. A clubroom passes when at least one of its
/// meetings passes all the criteria (with only unit-level criteria: when one of its units passes), and it is
/// kept with only what passes: the meetings, their matching categories and the units they belong to.
public struct ClubroomFilter: Hashable, Sendable {
    /// A registration number: only this unit and its child units (``ScoutUnit/belongs(to:)``).
    public var unit: String?
    /// An age in years: only meetings with a category whose ages hold it (a category without ages holds
    /// every age, and so does a meeting without categories).
    public var age: Int?
    /// Only meetings on this day (a meeting whose day is unknown does not match).
    public var weekday: Weekday?
    /// Only categories for this sex or mixed ones (a category that does not say is open to all).
    public var sex: Sex?
    /// Only water scout units.
    public var waterOnly = false

    /// A filter; every criterion left out (nil, false) takes everything.
    public init(unit: String? = nil, age: Int? = nil, weekday: Weekday? = nil, sex: Sex? = nil, waterOnly: Bool = false)
    {
        self.unit = unit
        self.age = age
        self.weekday = weekday
        self.sex = sex
        self.waterOnly = waterOnly
    }

    /// True when nothing is asked: every clubroom passes unchanged.
    public var isEmpty: Bool { self == ClubroomFilter() }

    /// True when a criterion concerns meetings (age, day, sex), so that a clubroom needs a passing meeting.
    public var concernsMeetings: Bool { age != nil || weekday != nil || sex != nil }

    /// The clubroom with only what passes, or nil when nothing does.
    public func apply(to room: Clubroom) -> Clubroom? {
        if isEmpty { return room }
        var kept = room
        kept.meetings = room.meetings.compactMap(apply)
        if concernsMeetings {
            guard !kept.meetings.isEmpty else { return nil }
            // The units of the meetings kept (all units that pass, when no meeting names its unit).
            let meetingUnits = kept.meetings.compactMap(\.unit)
            kept.units =
                meetingUnits.isEmpty
                ? room.units.filter(admits)
                : room.units.filter { unit in
                    meetingUnits.contains { $0.name == unit.name && $0.registrationNumber == unit.registrationNumber }
                }
        } else {
            kept.units = room.units.filter(admits)
            guard !kept.units.isEmpty else { return nil }
        }
        // A clubroom named after a unit that did not pass is named after the first unit that did, so that a
        // family never reads the name of a unit whose meetings are not shown.
        if room.units.contains(where: { $0.name == room.name }), !kept.units.contains(where: { $0.name == room.name }),
            let first = kept.units.first
        {
            kept.name = first.name
        }
        return kept
    }

    /// The clubrooms that pass, each with only what passes, in their order.
    public func apply(to rooms: [Clubroom]) -> [Clubroom] {
        isEmpty ? rooms : rooms.compactMap { apply(to: $0) }
    }

    /// The meeting with only its matching categories, or nil when it does not pass.
    public func apply(to meeting: Meeting) -> Meeting? {
        if let unit = meeting.unit {
            guard admits(unit) else { return nil }
        } else if self.unit != nil || waterOnly {
            return nil
        }
        if let weekday, meeting.weekday != weekday { return nil }
        guard age != nil || sex != nil, !meeting.categories.isEmpty else { return meeting }
        var kept = meeting
        kept.categories = meeting.categories.filter(admits)
        return kept.categories.isEmpty ? nil : kept
    }

    /// True when the unit passes the unit-level criteria.
    public func admits(_ unit: ScoutUnit) -> Bool {
        (self.unit.map { unit.belongs(to: $0) } ?? true) && (!waterOnly || unit.isWater == true)
    }

    /// True when the category passes the age and sex criteria.
    public func admits(_ category: AdvertisingCategory) -> Bool {
        (age.map { category.admits(age: $0) } ?? true) && (sex.map { category.sex?.admits($0) ?? true } ?? true)
    }
}
