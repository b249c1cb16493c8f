/// Detectors: added like every plugin, named in a configuration's `detectors`.
extension PluginRegistry.Builder {
    /// Adds a detector; it is asked before the earlier ones for the kinds it finds.
    public mutating func add<Detector: ImageDetector>(_ detector: Detector) { add(detector as any ImageDetector) }
    /// Adds a detector typed `any ImageDetector`.
    @_disfavoredOverload public mutating func add(_ detector: any ImageDetector) {
        contents.detectors.insert(detector, at: 0)
    }

    /// Makes a detector nameable in configurations (`"detectors": [{"name": "faces", "settings": {…}}]`).
    public mutating func add(_ factory: PluginFactory<any ImageDetector>) {
        contents.factories.add(factory, as: .detector)
    }

    @available(*, deprecated, renamed: "add(_:)")
    public mutating func register(_ detector: any ImageDetector) { add(detector) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<any ImageDetector>) { add(factory) }
}

extension ImageLoader.Builder {
    /// Adds a detector; it is asked before the earlier ones for the kinds it finds.
    public mutating func add<Detector: ImageDetector>(_ detector: Detector) { plugins.add(detector) }
    /// Adds a detector typed `any ImageDetector`.
    @_disfavoredOverload public mutating func add(_ detector: any ImageDetector) { plugins.add(detector) }
    /// Makes a detector nameable in configurations.
    public mutating func add(_ factory: PluginFactory<any ImageDetector>) { plugins.add(factory) }
}

extension PluginRegistry {
    /// The most recently registered detector that finds `kind`, or nil.
    public func detector(finding kind: RegionKind) -> (any ImageDetector)? {
        detectors.first { $0.kinds.contains(kind) }
    }

    /// Builds a detector by factory name with `settings`; an unknown name throws `invalidConfiguration` listing the
    /// known ones, and a detector that cannot work here (its library missing) throws saying why.
    public func makeDetector(named name: String, settings: JSONValue = .object([:]), path: String = "detector") throws
        -> any ImageDetector
    {
        try factories.build(PluginSpec(name, settings: settings), kind: .detector, path: path, settingsPath: path)
    }
}
