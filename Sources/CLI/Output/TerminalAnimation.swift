import Foundation
import Imago
import ImagoUI

/// Plays an animation in the terminal through `AnimationFramePlayer`: each frame decoded when its time comes,
/// scaled to `columns` and drawn over the previous one (the cursor moved back up), the cursor hidden while it plays.
/// Ctrl-C stops it; either way the terminal is restored (attributes reset, cursor shown) before returning.
struct TerminalAnimation {
    /// Escape sequences: hide and show the cursor, reset the attributes.
    static let hideCursor = "\u{1B}[?25l"
    static let restore = "\u{1B}[0m\u{1B}[?25h"

    let columns: Int
    let grayscale: Bool

    /// Plays `source` `maximumLoops` times at most (nil: the file's own loop count); returns whether Ctrl-C stopped
    /// it, and the source's warning if the animation broke off.
    func play(_ source: any AnimationFrameSource, maximumLoops: Int?, interrupted: @Sendable () -> Bool) throws
        -> (interrupted: Bool, warnings: [String])
    {
        let player = try AnimationFramePlayer(source: source, maximumLoops: maximumLoops)
        Console.write(Self.hideCursor)
        defer { Console.write(Self.restore) }
        let start = ContinuousClock.now
        var drawnLines = 0
        var shown = -1
        while !interrupted() {
            let elapsed = start.duration(to: .now).seconds
            let next = try player.show(at: elapsed)
            if player.framesShown != shown {
                shown = player.framesShown
                drawnLines = try draw(player.currentFrame, over: drawnLines)
            }
            guard let next else { break }
            // Short naps, so Ctrl-C is seen within 50 ms.
            Thread.sleep(forTimeInterval: min(0.05, max(0.001, next - start.duration(to: .now).seconds)))
        }
        return (interrupted(), player.warnings)
    }

    /// Draws `frame` over the `lines` lines drawn before; returns the lines drawn.
    private func draw(_ frame: ImageFrame, over lines: Int) throws -> Int {
        let image = DecodedImage(frames: [frame], format: .gif, hasAlpha: frame.raster.hasTransparency)
        let raster = try image.scaled(toWidth: columns).raster
        let picture = grayscale ? TerminalPicture.grayscale(raster) : TerminalPicture.trueColor(raster)
        Console.write((lines > 0 ? "\u{1B}[\(lines)A\r" : "") + picture)
        return picture.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
    }
}
