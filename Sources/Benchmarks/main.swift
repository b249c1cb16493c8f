import Imago

print("imago-bench: no benchmarks yet")
