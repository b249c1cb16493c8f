import Foundation

/// The layout of one stored data cache entry (a disk cache file, a Redis value): a fixed header, the key, the
/// metadata as JSON, then the body.
///
/// The 40-byte header, little endian: magic `ImagoDC\n` (8), format version (UInt32), key length (UInt32),
/// metadata length (UInt32), reserved 0 (UInt32), body length (UInt64), checksum (UInt64). The checksum is
/// XXH64 over the first 32 header bytes, the key, the metadata and the body, so any damage (to lengths too)
/// shows; the lengths must add up to the stored size, so a partial entry shows before any hashing. The key is
/// stored so that an entry found under another key's name (a hash collision, a copied file) reads as foreign.
public enum CacheEntryCodec {
    static let magic = Array("ImagoDC\n".utf8)
    static let version: UInt32 = 1
    /// The size of the fixed header.
    public static let headerSize = 40

    /// What the header says.
    public struct Header: Equatable, Sendable {
        /// Bytes of the key.
        public var keyLength: Int
        /// Bytes of the metadata JSON.
        public var metadataLength: Int
        /// Bytes of the body.
        public var bodyLength: Int
        /// XXH64 over the header's first 32 bytes, the key, the metadata and the body.
        public var checksum: UInt64

        /// The size the whole stored entry must have.
        public var fileSize: Int { CacheEntryCodec.headerSize + keyLength + metadataLength + bodyLength }
    }

    /// The whole stored form of `entry`: the prefix followed by the body.
    public static func encode(_ entry: DataCacheEntry, key: CacheKey) throws -> Data {
        var stored = try prefix(for: entry, key: key)
        stored.append(entry.data)
        return stored
    }

    /// The entry stored in `stored`, or `nil` when it is truncated, damaged or holds another key.
    public static func decode(_ stored: Data, key: CacheKey) -> DataCacheEntry? {
        let headerBytes = Data(stored.prefix(headerSize))
        guard let header = headerBytes.withUnsafeBytes({ Self.header($0) }), header.fileSize == stored.count else {
            return nil
        }
        let restEnd = stored.startIndex + headerSize + header.keyLength + header.metadataLength
        let rest = Data(stored[(stored.startIndex + headerSize)..<restEnd])
        let body = Data(stored[restEnd...])
        return entry(header: header, headerBytes: headerBytes, rest: rest, body: body, key: key)
    }

    /// The header, key and metadata of `entry`, to be written before its body.
    public static func prefix(for entry: DataCacheEntry, key: CacheKey) throws -> Data {
        let keyBytes = Data(key.rawValue.utf8)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let metadata = try encoder.encode(entry.metadata)
        var header = Data()
        header.append(contentsOf: magic)
        header.appendLittleEndian(version)
        header.appendLittleEndian(UInt32(keyBytes.count))
        header.appendLittleEndian(UInt32(metadata.count))
        header.appendLittleEndian(UInt32(0))
        header.appendLittleEndian(UInt64(entry.data.count))
        let checksum = Self.checksum(headerStart: header, keyAndMetadata: [keyBytes, metadata], body: entry.data)
        header.appendLittleEndian(checksum)
        return header + keyBytes + metadata
    }

    /// Parses a header; `nil` when the magic, version or lengths are wrong.
    public static func header(_ bytes: UnsafeRawBufferPointer) -> Header? {
        guard bytes.count >= headerSize, bytes.prefix(8).elementsEqual(magic) else { return nil }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
        }
        func u64(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        guard u32(8) == version, u32(20) == 0, u64(24) < UInt64(Int32.max) * 64 else { return nil }
        return Header(
            keyLength: Int(u32(12)), metadataLength: Int(u32(16)), bodyLength: Int(u64(24)), checksum: u64(32))
    }

    /// The checksum over the first 32 header bytes, the key and metadata, and the body.
    static func checksum<Head: DataProtocol>(headerStart: Head, keyAndMetadata: [Data], body: Data) -> UInt64 {
        var hasher = XXHash64()
        hasher.update(Array(headerStart.prefix(32)))
        for part in keyAndMetadata { part.withUnsafeBytes { hasher.update($0) } }
        body.withUnsafeBytes { hasher.update($0) }
        return hasher.finalize()
    }

    /// The entry, if `rest` (the bytes after the header) holds `key` and metadata matching the checksum.
    public static func entry(header: Header, headerBytes: Data, rest: Data, body: Data, key: CacheKey)
        -> DataCacheEntry?
    {
        guard rest.count == header.keyLength + header.metadataLength, body.count == header.bodyLength else {
            return nil
        }
        let keyBytes = rest.prefix(header.keyLength)
        let metadataBytes = rest.dropFirst(header.keyLength)
        guard keyBytes.elementsEqual(key.rawValue.utf8),
            checksum(headerStart: headerBytes, keyAndMetadata: [Data(keyBytes), Data(metadataBytes)], body: body)
                == header.checksum,
            let metadata = try? JSONDecoder().decode(CacheMetadata.self, from: Data(metadataBytes))
        else { return nil }
        return DataCacheEntry(data: body, metadata: metadata)
    }
}

extension Data {
    fileprivate mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
