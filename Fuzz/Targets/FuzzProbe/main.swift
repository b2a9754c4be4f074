import FuzzSupport

Fuzz.run(fuzzProbe)
