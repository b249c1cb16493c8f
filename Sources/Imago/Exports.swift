@_exported import ImagoCaches
@_exported import ImagoCodecs
@_exported import ImagoCore
@_exported import ImagoRedis
@_exported import ImagoTransports
