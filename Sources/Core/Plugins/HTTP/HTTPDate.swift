import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms recipients must accept.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]

    /// Parses `Sun, 06 Nov 1994 08:49:37 GMT`, `Sunday, 06-Nov-94 08:49:37 GMT` or `Sun Nov  6 08:49:37 1994`;
    /// `nil` for anything else.
    public static func parse(_ text: String) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map(String.init)
        var numbers: [(value: Int, digits: Int)] = []
        var month: Int?
        var time: (Int, Int, Int)?
        for token in tokens {
            if token.allSatisfy(\.isASCIIDigitCharacter), token.count <= 4, let value = Int(token) {
                numbers.append((value, token.count))
            } else if token.contains(":") {
                let fields = token.split(separator: ":").compactMap { Int($0) }
                guard fields.count == 3, time == nil else { return nil }
                time = (fields[0], fields[1], fields[2])
            } else if let index = months.firstIndex(of: token.lowercased()) {
                month = index + 1
            } else if !["gmt", "utc", "z", "+0000"].contains(token.lowercased()), !token.allSatisfy(\.isLetter) {
                return nil
            }
        }
        guard let month, let (hour, minute, second) = time, numbers.count == 2 else { return nil }
        let day = numbers[0].value
        var year = numbers[1].value
        if numbers[1].digits == 2 { year += year < 70 ? 2000 : 1900 }
        guard numbers[0].digits <= 2, numbers[1].digits != 1, numbers[1].digits != 3, (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Formats `date` as an IMF-fixdate, for example `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func string(from date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let weekday = weekdays[((days % 7) + 7) % 7]
        return "\(weekday), \(two(day)) \(months[month - 1].capitalized) \(year) "
            + "\(two(clock / 3600)):\(two(clock / 60 % 60)):\(two(clock % 60)) GMT"
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
