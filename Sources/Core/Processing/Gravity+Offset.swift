extension Gravity {
    /// How far `offset` moves a window or an image this gravity places, in pixels (imgproxy's gravity offsets): a
    /// value of magnitude 1 or more is pixels (multiplied by `pixelScale`), a smaller one a fraction of `side`;
    /// positive values move away from the edge the gravity names (rightwards for west and the centre, leftwards
    /// for east; downwards for north and the centre, upwards for south). A focus point and smart gravity ignore
    /// offsets, as imgproxy's do.
    func offsetShift(
        _ offset: (x: Double, y: Double), pixelScale: (x: Double, y: Double) = (1, 1),
        side: (width: Double, height: Double)
    ) -> (x: Double, y: Double) {
        switch self {
        case .focusPoint, .smart: return (0, 0)
        default: break
        }
        let shiftX = abs(offset.x) >= 1 ? offset.x * pixelScale.x : offset.x * side.width
        let shiftY = abs(offset.y) >= 1 ? offset.y * pixelScale.y : offset.y * side.height
        return (anchor.x == 1 ? -shiftX : shiftX, anchor.y == 1 ? -shiftY : shiftY)
    }
}
