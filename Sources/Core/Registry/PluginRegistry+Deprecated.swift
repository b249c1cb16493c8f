import Synchronization

// 0.1.0's PluginRegistry was a class that plugins were registered into after it was made. Code written for it still
// builds, with a warning naming the builder: the mutators below change the registry they are called on (and its
// copies, which share that state as references to the class did), and a loader made from it afterwards uses what
// they registered. A loader keeps the registry as it was when the loader was made, as 0.1.0's did.

/// The changes made through the deprecated mutators, shared by every copy of the registry they were made on.
final class LegacyRegistryChanges: Sendable {
    private let changed = Mutex<PluginRegistry.Contents?>(nil)
    /// Set once a change is made: every lookup of a registry asks, and nearly all are never changed.
    private let isChanged = Atomic<Bool>(false)

    /// What the registry holds after the changes; `nil` when none was made.
    var contents: PluginRegistry.Contents? {
        guard isChanged.load(ordering: .acquiring) else { return nil }
        return changed.withLock { $0 }
    }

    /// Applies `change` to a builder holding the registry's contents (`stored` before the first change).
    func change(_ stored: PluginRegistry.Contents, _ change: (inout PluginRegistry.Builder) -> Void) {
        changed.withLock { changed in
            var builder = PluginRegistry.Builder()
            builder.contents = changed ?? stored
            change(&builder)
            changed = builder.build().contents
        }
        isChanged.store(true, ordering: .releasing)
    }
}

extension PluginRegistry {
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add plugins on a PluginRegistry.Builder (registry.with { $0.add(plugin) })"
    )
    public func register(_ transport: any ImageTransport) { change { $0.add(transport) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add plugins on a PluginRegistry.Builder (registry.with { $0.add(plugin) })"
    )
    public func register(_ decoder: any ImageDecoder) { change { $0.add(decoder) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add plugins on a PluginRegistry.Builder (registry.with { $0.add(plugin) })"
    )
    public func register(_ encoder: any ImageEncoder) { change { $0.add(encoder) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add plugins on a PluginRegistry.Builder (registry.with { $0.add(plugin) })"
    )
    public func register(_ codec: Codec) { change { $0.add(codec) } }

    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factory) })"
    )
    public func registerFactory(_ factory: PluginFactory<any ImageTransport>) { change { $0.add(factory) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factory) })"
    )
    public func registerFactory(_ factory: PluginFactory<Codec>) { change { $0.add(factory) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factory) })"
    )
    public func registerFactory(_ factory: PluginFactory<any ImageCache>) { change { $0.add(factory) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factory) })"
    )
    public func registerFactory(_ factory: PluginFactory<any DataCache>) { change { $0.add(factory) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factory) })"
    )
    public func registerFactory(_ factory: PluginFactory<any ImageProcessor>) { change { $0.add(factory) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add factories on a PluginRegistry.Builder (registry.with { $0.add(factories) })"
    )
    public func registerFactories(_ factories: PluginFactories) { change { $0.add(factories) } }
    @available(
        *, deprecated,
        message:
            "PluginRegistry is a value since 0.2.0: add presets on a PluginRegistry.Builder (registry.with { $0.add(preset: name, processors) })"
    )
    public func registerPreset(_ name: String, _ processors: [any ImageProcessor]) {
        change { $0.add(preset: name, processors) }
    }

    @available(*, deprecated, renamed: "factoryNames(_:)", message: "use factoryNames(.transport)")
    public var transportFactoryNames: [String] { factoryNames(.transport) }
    @available(*, deprecated, renamed: "factoryNames(_:)", message: "use factoryNames(.codec)")
    public var codecFactoryNames: [String] { factoryNames(.codec) }
    @available(*, deprecated, renamed: "factoryNames(_:)", message: "use factoryNames(.processor)")
    public var processorFactoryNames: [String] { factoryNames(.processor) }
    @available(*, deprecated, message: "use presets.keys.sorted()")
    public var presetNames: [String] { presets.keys.sorted() }

    /// 0.1.0's form, which also gave the factory's name: that is the spec's (`PluginSpec(value, path:).name`).
    @_disfavoredOverload
    @available(
        *, deprecated,
        message:
            "makeDataCache(_:path:) returns the cache alone since 0.2.0; its name is PluginSpec(value, path: path).name"
    )
    public func makeDataCache(_ value: JSONValue, path: String) throws -> (name: String, cache: any DataCache) {
        (try PluginSpec(value, path: path).name, try makeDataCache(value, path: path))
    }

    private func change(_ change: (inout Builder) -> Void) { legacy.change(contents, change) }
}

extension PluginRegistry.Builder {
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func register(_ transport: any ImageTransport) { add(transport) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func register(_ decoder: any ImageDecoder) { add(decoder) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func register(_ encoder: any ImageEncoder) { add(encoder) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func register(_ codec: Codec) { add(codec) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<any ImageTransport>) { add(factory) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<Codec>) { add(factory) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<any ImageCache>) { add(factory) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<any DataCache>) { add(factory) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactory(_ factory: PluginFactory<any ImageProcessor>) { add(factory) }
    @available(*, deprecated, renamed: "add(_:)")
    public mutating func registerFactories(_ factories: PluginFactories) { add(factories) }
    @available(*, deprecated, renamed: "add(preset:_:)")
    public mutating func registerPreset(_ name: String, _ processors: [any ImageProcessor]) {
        add(preset: name, processors)
    }
}
