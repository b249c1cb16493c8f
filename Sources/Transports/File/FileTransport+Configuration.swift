import ImagoCore

extension FileTransport {
    /// Settings of a file transport.
    public struct Configuration: Sendable, Hashable {
        /// When set, only files inside this directory (after resolving `..` and symbolic links) are read.
        public var root: String?
        /// Largest file read, in bytes; checked from the file's size before reading.
        public var maxBytes: Int
        /// Bytes read at a time; each chunk is one `.bytes` event.
        public var chunkSize: Int

        /// The defaults: no root, 50 MB, 1 MB chunks.
        public init(root: String? = nil, maxBytes: Int = 50 * 1024 * 1024, chunkSize: Int = 1024 * 1024) {
            self.root = root
            self.maxBytes = maxBytes
            self.chunkSize = max(1, chunkSize)
        }

        /// Reads the settings of a configuration file; absent keys keep their defaults.
        public init(reading reader: ConfigReader) throws {
            let defaults = Configuration()
            let root = try reader.string("root")
            if let root, root.isEmpty {
                throw ConfigReader.error(reader.path(of: "root"), "expected a directory path or null, found \"\"")
            }
            self.init(
                root: root,
                maxBytes: try reader.int("maxBytes", default: defaults.maxBytes, in: 1...Int.max),
                chunkSize: try reader.int("chunkSize", default: defaults.chunkSize, in: 1...(1 << 30)))
        }

        /// Every setting with its value, as a configuration file spells it (`root` is null when unset).
        public var settings: JSONValue {
            .object([
                "root": root.map { .string($0) } ?? .null,
                "maxBytes": .number(Double(maxBytes)),
                "chunkSize": .number(Double(chunkSize)),
            ])
        }
    }

    /// The `file` factory: builds a transport from a configuration's settings (see `Configuration`).
    public static let factory = PluginFactory<any ImageTransport>(
        name: "file", defaultSettings: Configuration().settings
    ) { reader in
        FileTransport(configuration: try Configuration(reading: reader))
    }
}
