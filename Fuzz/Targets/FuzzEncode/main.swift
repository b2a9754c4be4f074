import FuzzSupport

writeSeeds()
Fuzz.run(fuzzEncode)
