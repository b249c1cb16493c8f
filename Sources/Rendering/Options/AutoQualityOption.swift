/// `q=auto[:TARGET[:MIN:MAX]]` (imgproxy's `autoquality:dssim:TARGET:MIN:MAX`): the lowest quality whose output is
/// within a DSSIM target of the processed image. A part left out (nil) is the service's setting
/// (`serve.autoQuality`, else `AutoQuality`'s defaults).
public struct AutoQualityOption: Sendable, Hashable {
    /// The DSSIM target, in (0, 1).
    public var target: Double?
    /// The lowest quality the search may answer.
    public var minQuality: Int?
    /// The highest quality the search may answer.
    public var maxQuality: Int?

    /// An option; nil parts come from the settings.
    public init(target: Double? = nil, minQuality: Int? = nil, maxQuality: Int? = nil) {
        (self.target, self.minQuality, self.maxQuality) = (target, minQuality, maxQuality)
    }

    /// The search's settings: the parts given over `defaults`. Throws `QualityError` when they cannot be searched
    /// (a target outside (0, 1), a minimum above the maximum).
    public func settings(over defaults: AutoQuality) throws -> AutoQuality {
        var settings = defaults
        if let target { settings.target = target }
        if let minQuality { settings.minQuality = minQuality }
        if let maxQuality { settings.maxQuality = maxQuality }
        try settings.validate()
        return settings
    }

    /// The canonical value of `q`: `auto`, `auto:0.02`, `auto:0.02:40:90`, `auto:-:40:90` (`-`: the setting).
    var canonical: String {
        let target = self.target.map(ProcessingOptions.number) ?? "-"
        guard minQuality != nil || maxQuality != nil else { return self.target == nil ? "auto" : "auto:\(target)" }
        return "auto:\(target):\(minQuality.map(String.init) ?? "-"):\(maxQuality.map(String.init) ?? "-")"
    }
}
