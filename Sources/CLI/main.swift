import Imago

print("imago: not built yet")
