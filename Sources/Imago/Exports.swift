@_exported import ImagoCaches
@_exported import ImagoCodecs
@_exported import ImagoCore
@_exported import ImagoRedis
@_exported import ImagoS3
@_exported import ImagoTransports
@_exported import ImagoUI
