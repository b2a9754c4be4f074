import FuzzSupport

writeSeeds()
Fuzz.run(fuzzClientResponse)
