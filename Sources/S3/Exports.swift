@_exported import ImagoCore
@_exported import ImagoCurl
