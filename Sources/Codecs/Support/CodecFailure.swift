import Foundation
import ImagoCore

/// The errors codecs throw, worded alike: the format first, then the library's reason.
enum CodecFailure {
    /// The bytes could not be decoded as `format`.
    static func decoding(_ format: ImageFormat, _ reason: String) -> ImagoError {
        ImagoError(.decodingFailed(format: format), "\(format) decoding failed: \(reason)")
    }

    /// The image could not be encoded as `format`.
    static func encoding(_ format: ImageFormat, _ reason: String) -> ImagoError {
        ImagoError(.encodingFailed(format: format), "\(format) encoding failed: \(reason)")
    }

    /// A C string reason, or `fallback` when the library gave none.
    static func reason(_ text: UnsafePointer<CChar>?, fallback: String = "unknown error") -> String {
        guard let text, text.pointee != 0 else { return fallback }
        return String(cString: text)
    }
}

extension Data {
    /// Calls `body` with the bytes as a C byte pointer and count; an empty buffer fails as `format` data.
    func withEncodedBytes<R>(
        format: ImageFormat, _ body: (UnsafePointer<UInt8>, Int) throws -> R
    ) throws -> R {
        try withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                throw CodecFailure.decoding(format, "no data")
            }
            return try body(base.assumingMemoryBound(to: UInt8.self), bytes.count)
        }
    }
}

/// Wraps a buffer an encoder allocated with `malloc` as `Data` without copying it.
func encodedData(_ pointer: UnsafeMutablePointer<UInt8>, count: Int) -> Data {
    Data(bytesNoCopy: pointer, count: count, deallocator: .free)
}
