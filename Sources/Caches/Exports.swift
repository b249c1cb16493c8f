@_exported import ImagoCore
