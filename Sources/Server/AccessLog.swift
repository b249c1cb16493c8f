import Foundation

/// One access-log line: `{"time", "method", "path", "status", "bytes", "ms", "cache"}` as JSON.
public struct AccessLogEntry: Sendable, Hashable {
    /// When the request arrived.
    public var time: Date
    public var method: String
    /// The request target as sent.
    public var path: String
    public var status: Int
    /// Body bytes sent (0 for HEAD and 304).
    public var bytes: Int
    /// Milliseconds from the request line to the response queued.
    public var milliseconds: Double
    /// `result`, `memory`, `disk`, `network` or `none`: where the answer came from.
    public var cache: String

    /// The JSON line, without the newline.
    public var jsonLine: String {
        let ms = (milliseconds * 1000).rounded() / 1000
        return "{\"time\":\(Self.quoted(Self.timestamp(time))),\"method\":\(Self.quoted(method)),"
            + "\"path\":\(Self.quoted(path)),\"status\":\(status),\"bytes\":\(bytes),\"ms\":\(ms),"
            + "\"cache\":\(Self.quoted(cache))}"
    }

    /// RFC 3339 in UTC with milliseconds.
    static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = Int((date.timeIntervalSince1970 - Double(seconds)) * 1000)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(millis), 3))Z"
    }

    /// A JSON string literal; control characters and invalid bytes are escaped, so one line stays one line.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f || (0x2028...0x2029).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
