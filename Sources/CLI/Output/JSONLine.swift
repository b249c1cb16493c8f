import Foundation
import Imago

/// A JSON value written with its object keys in the order given, so output lines read as the contract lists them.
indirect enum JSONOutput: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    /// The compact JSON text, on one line.
    var text: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return Self.number(value)
        case .string(let value): return Self.quoted(value)
        case .array(let items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quoted($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// A number with at most `digits` decimals, trailing zeros dropped.
    static func rounded(_ value: Double, digits: Int = 3) -> JSONOutput {
        let factor = pow(10, Double(digits))
        return .double((value * factor).rounded() / factor)
    }

    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(format: "%.10g", value).replacingOccurrences(of: "e+", with: "e")
    }

    private static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}

extension JSONOutput {
    /// `value` as output, object keys sorted (a `JSONValue` object has no order).
    init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let bool): self = .bool(bool)
        case .number(let number):
            self = number == number.rounded() && abs(number) < 1e15 ? .int(Int(number)) : .double(number)
        case .string(let string): self = .string(string)
        case .array(let items): self = .array(items.map(JSONOutput.init))
        case .object(let fields):
            self = .object(fields.sorted { $0.key < $1.key }.map { ($0.key, JSONOutput($0.value)) })
        }
    }
}
