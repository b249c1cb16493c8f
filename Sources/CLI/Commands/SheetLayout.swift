import ImagoCore

/// Where things go on a contact sheet.
///
/// Every tile is `cell + 2 × padding` wide and `cell + 2 × padding + labelHeight` tall; the sheet is `columns`
/// tiles wide and as many rows tall as the sources need. Thumbnails are centred in their cell.
struct SheetLayout {
    static let defaultCell = 128
    static let defaultColumns = 4
    static let padding = 4
    static let labelHeight = 12
    static let background = RGBA(255, 255, 255)
    static let ink = RGBA(40, 40, 40)
    static let failureInk = RGBA(220, 30, 30)
    static let failureFill = RGBA(255, 228, 228)

    let cell: Int
    let columns: Int
    let rows: Int

    init(count: Int, cell: Int, columns: Int?) {
        self.cell = cell
        self.columns = columns ?? min(count, Self.defaultColumns)
        rows = (count + self.columns - 1) / self.columns
    }

    var tileWidth: Int { cell + 2 * Self.padding }
    var tileHeight: Int { cell + 2 * Self.padding + Self.labelHeight }
    var width: Int { columns * tileWidth }
    var height: Int { rows * tileHeight }

    /// The top-left corner of cell `index`'s image area.
    func origin(of index: Int) -> (x: Int, y: Int) {
        ((index % columns) * tileWidth + Self.padding, (index / columns) * tileHeight + Self.padding)
    }

    func drawThumbnail(_ raster: Raster, at index: Int, label: String, on canvas: inout Canvas) {
        let (x, y) = origin(of: index)
        canvas.draw(raster, x: x + (cell - raster.width) / 2, y: y + (cell - raster.height) / 2)
        drawLabel(label, at: index, color: Self.ink, on: &canvas)
    }

    /// A failed source: a pale red cell crossed by a red X.
    func drawFailure(at index: Int, label: String, on canvas: inout Canvas) {
        let (x, y) = origin(of: index)
        canvas.fill(x: x, y: y, width: cell, height: cell, color: Self.failureFill)
        let thickness = max(2, cell / 24)
        let inset = cell / 5
        canvas.line(
            from: (x + inset, y + inset), to: (x + cell - inset, y + cell - inset), thickness: thickness,
            color: Self.failureInk)
        canvas.line(
            from: (x + cell - inset, y + inset), to: (x + inset, y + cell - inset), thickness: thickness,
            color: Self.failureInk)
        drawLabel(label, at: index, color: Self.failureInk, on: &canvas)
    }

    /// The label centred under the cell, shortened with `~` to fit its width.
    private func drawLabel(_ label: String, at index: Int, color: RGBA, on canvas: inout Canvas) {
        let fits = max(1, (cell + BitmapFont.advance - BitmapFont.glyphWidth) / BitmapFont.advance)
        let text = label.count <= fits ? label : String(label.prefix(max(0, fits - 1))) + "~"
        let textWidth = text.count * BitmapFont.advance - (BitmapFont.advance - BitmapFont.glyphWidth)
        let (x, y) = origin(of: index)
        let top = y + cell + (Self.padding + Self.labelHeight - BitmapFont.glyphHeight) / 2
        canvas.text(text, x: x + max(0, (cell - textWidth) / 2), y: top, color: color)
    }
}
