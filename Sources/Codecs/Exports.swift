@_exported import ImagoColor
@_exported import ImagoCore
