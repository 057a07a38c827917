print("no benchmarks yet")
