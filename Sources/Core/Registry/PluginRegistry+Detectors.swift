/// Detectors: registered like every plugin, named in a configuration's `detectors`.
extension PluginRegistry.Builder {
    /// Adds a detector; it is asked before the earlier ones for the kinds it finds.
    public mutating func register(_ detector: any ImageDetector) { detectors.append(detector) }

    /// Makes a detector nameable in configurations (`"detectors": [{"name": "faces", "settings": {…}}]`).
    public mutating func registerFactory(_ factory: PluginFactory<any ImageDetector>) {
        factories.add(factory, as: .detector)
    }
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
