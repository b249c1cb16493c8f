// The server speaks the umbrella's vocabulary (formats, options, configuration) in its public API.
@_exported import Imago
