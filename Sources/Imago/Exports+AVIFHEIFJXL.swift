@_exported import ImagoAVIF
@_exported import ImagoHEIF
@_exported import ImagoJXL
