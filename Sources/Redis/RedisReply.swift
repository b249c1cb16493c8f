import CHiredis
import Foundation

/// One Redis reply, copied out of hiredis's reply object.
enum RedisReply: Sendable, Equatable {
    case string(Data)
    case status(String)
    case integer(Int)
    case array([RedisReply])
    case null
    case error(String)

    /// Copies `reply` (which the caller still frees).
    init(_ reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .string(value.str.map { Data(bytes: $0, count: value.len) } ?? Data())
        case REDIS_REPLY_STATUS:
            self = .status(value.str.map { String(decoding: Data(bytes: $0, count: value.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_ERROR:
            self = .error(value.str.map { String(decoding: Data(bytes: $0, count: value.len), as: UTF8.self) } ?? "")
        case REDIS_REPLY_INTEGER:
            self = .integer(Int(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            elements.reserveCapacity(value.elements)
            for index in 0..<value.elements {
                if let element = value.element[index] { elements.append(RedisReply(element)) }
            }
            self = .array(elements)
        default:
            self = .null
        }
    }
}
